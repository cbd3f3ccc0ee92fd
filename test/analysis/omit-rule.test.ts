/**
 * `-O S`: an interval is omitted when its middle lies before S, so at `-i 1 -O 1` the first interval
 * is and the second is not; marking stops at the first interval that is not. A stream's headline then
 * counts only what arrived after the last omitted interval's end, over the time from that end (or its
 * first byte, if later) to its last byte; a receiver with no samples of those seconds is left as it is
 * (iperf3's totals already leave them out). The diagnosis reads only the readings after the omitted
 * seconds, retransmits counted from the last omitted reading.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysisView, isOmitted, markOmitted, omitStream, omittedSentBytes } from '../../electron/analysis/omit-rule.js';
import { makeIntervals, makeResult, tcpSample } from '../helpers/result-fixtures.js';

describe('omit rule', () => {
  it("omitted when the interval's middle lies before S; never without S", () => {
    assert.equal(isOmitted({ t: 1, seconds: 1 }, 1), true, 'middle 0.5');
    assert.equal(isOmitted({ t: 2, seconds: 1 }, 1), false, 'middle 1.5');
    assert.equal(isOmitted({ t: 1.2, seconds: 0.4 }, 1), false, 'middle exactly 1 is not before 1');
    assert.equal(isOmitted({ t: 0.5, seconds: 0.5 }, 0), false);
    assert.equal(isOmitted({ t: 0.5, seconds: 0.5 }, null), false);
  });

  it('marks the leading intervals and says where the last one ends', () => {
    const ivs = makeIntervals([
      { t: 0.5, received: [100] },
      { t: 1, received: [100] },
      { t: 1.5, received: [100] },
    ]);
    assert.deepEqual(markOmitted(ivs, 1), { index: 2, t: 1 });
    assert.deepEqual(
      ivs.map((iv) => iv.omitted ?? false),
      [true, true, false],
    );
    assert.equal(markOmitted(makeIntervals([{ t: 1, received: [1] }]), 0), null);
  });

  it("a stream's headline without the omitted bytes, time and completions", () => {
    const r = makeResult({ streams: [{ bytes: 10_000, seconds: 3, completions: 30, firstT: 0.2 }] });
    const ivs = makeIntervals([
      { t: 1, received: [1_000], sent: [1_500], completions: [4] },
      { t: 2, received: [4_000], sent: [4_000] },
      { t: 3.2, received: [5_000], sent: [4_500] },
    ]);
    markOmitted(ivs, 1);
    const s = r.streams[0];
    assert.ok(s);
    const out = omitStream(s, ivs, 1);
    assert.deepEqual([out.bytes, out.completions], [9_000, 26]);
    assert.ok(Math.abs((out.seconds ?? 0) - 2.2) < 1e-9, `from the omitted end (1 s) to the last byte (3.2 s): ${out.seconds}`);
    assert.ok(Math.abs((out.bitsPerSecond ?? 0) - (9_000 * 8) / 2.2) < 1e-6);
    assert.equal(omittedSentBytes(ivs, 0), 1_500);
  });

  it('a receiver without samples of the omitted seconds keeps its totals', () => {
    const s = makeResult({ streams: [{ bytes: 10_000, seconds: 3, completions: 30 }] }).streams[0];
    assert.ok(s);
    const ivs = makeIntervals([{ t: 1, received: [1_000] }]);
    const first = ivs[0];
    assert.ok(first?.streams[0]);
    first.streams[0].receivedBytes = null;
    markOmitted(ivs, 1);
    assert.equal(omitStream(s, ivs, 1), s);
  });

  it('the diagnosis reads the readings after the omitted seconds, retransmits counted from there', () => {
    const r = makeResult({ streams: [{ bytes: 10_000, seconds: 3, completions: 30 }] });
    r.intervals = makeIntervals([
      { t: 1, received: [1] },
      { t: 2, received: [1] },
      { t: 3, received: [1] },
    ]);
    markOmitted(r.intervals, 1);
    const send = r.streams[0]?.send;
    assert.ok(send);
    send.tcp = [tcpSample(1, { totalRetransSegments: 40 }), tcpSample(2, { totalRetransSegments: 41 }), tcpSample(3, { totalRetransSegments: null })];
    const tcp = analysisView(r).streams[0]?.send?.tcp ?? [];
    assert.deepEqual(
      tcp.map((x) => [x.index, x.totalRetransSegments]),
      [
        [2, 1],
        [3, null],
      ],
    );
    assert.equal(r.streams[0]?.send?.tcp?.length, 3, 'the result itself is left whole');
  });
});
