/**
 * The result's delay under load from the sender series: idle = the lowest min_rtt,
 * loaded = the median smoothed RTT while data was in flight, queueing = smoothed
 * less minimum (the verdict's figure), the peak = a full queue; and how the
 * summary, the CSV and the HTML report state it, "unknown" when not measured.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeDelay } from '../../electron/analysis/delay-summary.js';
import { delaySentence, queueingUs } from '../../electron/contract/delay-info.js';
import { formatSummary } from '../../electron/report/summary-block.js';
import { formatCsv } from '../../electron/report/csv-report.js';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { makeResult, tcpSample } from '../helpers/result-fixtures.js';

function bloated() {
  const r = makeResult({ streams: [{ bytes: 10_000_000, seconds: 8, completions: 100 }] });
  const send = r.streams[0]?.send;
  assert.ok(send);
  // 20 ms path, a queue that fills to 200 ms and sits at 150 ms typically; the drained last reading is left out.
  send.tcp = [
    tcpSample(1, { rttUs: 20_500, minRttUs: 20_000, unackedSegments: 10 }),
    tcpSample(2, { rttUs: 170_000, minRttUs: 20_000, unackedSegments: 100 }),
    tcpSample(3, { rttUs: 220_000, minRttUs: 20_000, unackedSegments: 150 }),
    tcpSample(4, { rttUs: 170_000, minRttUs: 20_000, unackedSegments: 100 }),
    tcpSample(5, { rttUs: 400_000, minRttUs: 20_000, unackedSegments: 0 }),
  ];
  return r;
}

describe('delay under load', () => {
  it('idle from min_rtt, loaded and queueing from the readings with data in flight, the peak a full queue', () => {
    const d = summarizeDelay(bloated());
    assert.ok(d);
    assert.equal(d.direction, 'controllerToResponder');
    assert.equal(d.idleRttMs, 20);
    assert.equal(d.idleSource, 'tcp_info min_rtt');
    assert.equal(d.loadedRttMs, 170);
    assert.equal(d.loadedSource, 'tcp_info smoothed rtt');
    assert.equal(d.queueingMs, 150);
    assert.equal(d.peakQueueingMs, 200);
    assert.equal(
      delaySentence(d),
      'RTT idle 20.0 ms (tcp_info min_rtt), under load 170 ms (tcp_info smoothed rtt): the path adds 150 ms of queueing under load (at most 200 ms)',
    );
  });

  it('queueing is never negative and unknown without a minimum', () => {
    assert.equal(queueingUs(900, 1000), 0);
    assert.equal(queueingUs(900, null), null);
    assert.equal(queueingUs(null, 1000), null);
  });

  it('unknown, in words, when no TCP_INFO was read', () => {
    const d = summarizeDelay(makeResult({ streams: [{ bytes: 1000, seconds: 1, completions: 1 }] }));
    assert.ok(d);
    assert.equal(d.idleSource, 'unknown');
    assert.equal(d.queueingMs, null);
    assert.match(delaySentence(d), /^RTT idle unknown, under load unknown: the queueing under load is unknown$/);
  });

  it('the summary, the CSV and the HTML report state it', () => {
    const r = bloated();
    r.delay = summarizeDelay(r);
    assert.match(formatSummary(r), /Delay under load: RTT idle 20\.0 ms .*the path adds 150 ms of queueing under load/);
    const csv = formatCsv(r).split('\r\n');
    const header = csv[0]?.replace(/^\uFEFF/, '').split(',') ?? [];
    const total = csv.find((l) => l.startsWith('total,'))?.split(',') ?? [];
    assert.equal(total[header.indexOf('idle_rtt_ms')], '20.000');
    assert.equal(total[header.indexOf('loaded_rtt_ms')], '170.000');
    assert.equal(total[header.indexOf('queueing_ms')], '150.000');
    assert.match(formatHtmlReport(r), /data-delay="known"><b>Delay under load:<\/b> RTT idle 20\.0 ms/);
    delete r.delay;
    assert.match(formatHtmlReport(r), /Delay under load: unknown/);
  });
});
