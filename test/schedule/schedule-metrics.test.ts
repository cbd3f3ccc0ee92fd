/**
 * The schedule's metrics (electron/schedule/schedule-metrics.ts): the last run's figures per peer and
 * direction, a changed verdict replacing the old series, an unmeasured figure without a series (not
 * 0), an error code outside LH_ERR_* bounded to `other`, OpenMetrics text.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { ScheduleRunRecord } from '../../electron/contract/schedule.js';
import { ScheduleMetrics } from '../../electron/schedule/schedule-metrics.js';
import { serveMetrics } from '../../electron/schedule/metrics-server.js';

const rec = (over: Partial<ScheduleRunRecord> = {}): ScheduleRunRecord => ({
  schedule: 'lab',
  slot: 1,
  peer: { host: '192.0.2.7', port: 5211 },
  startedAt: '2026-12-06T12:00:00.000Z',
  endedAt: '2026-12-06T12:00:10.000Z',
  outcome: 'ok',
  code: null,
  savedPath: '/x.json',
  saveError: null,
  tries: 1,
  ...over,
});

/** Just what the metrics read of a result. */
function result(verdict: string, rttSeconds: number | null, bps: number): LonghaulResult {
  return {
    params: {},
    total: { bytes: 1, bitsPerSecond: bps },
    directions: { controllerToResponder: { bytes: 1, bitsPerSecond: bps } },
    diagnosis: [{ direction: 'controllerToResponder', verdict, case: `${verdict}/x`, numbers: { rttSeconds, retransSegments: 3 } }],
  } as unknown as LonghaulResult;
}

describe('schedule metrics', () => {
  it('keeps the last figures and one verdict series per peer and direction; unknown is no series', async () => {
    const m = new ScheduleMetrics();
    m.record(rec(), result('window-limited', 0.04, 94e6));
    m.record(rec({ slot: 2 }), result('link-limited', null, 95e6));
    const text = await m.text();
    const peer = 'schedule="lab",peer="192.0.2.7:5211",direction="to-peer"';
    assert.match(text, new RegExp(`^longhaul_throughput_bits_per_second\\{${peer}\\} 95000000$`, 'm'));
    assert.match(text, new RegExp(`^longhaul_verdict_info\\{${peer},verdict="link-limited",case="link-limited/x"\\} 1$`, 'm'));
    assert.doesNotMatch(text, /verdict="window-limited"/, 'the old verdict is gone, not left at 1');
    assert.doesNotMatch(text, /^longhaul_rtt_seconds\{/m, "the second run measured no RTT: no series, not the first run's, not 0");
    assert.match(text, /^longhaul_runs_total\{schedule="lab",peer="192.0.2.7:5211",outcome="ok",code=""\} 2$/m);
    assert.match(text, /^longhaul_last_run_timestamp_seconds\{schedule="lab",peer="192.0.2.7:5211"\} 1796558410$/m);
    assert.match(text, /# EOF\n$/);
  });

  it('counts failures by code, bounding a code that is not LH_ERR_* to "other", and failed saves', async () => {
    const m = new ScheduleMetrics();
    m.record(rec({ outcome: 'failed', code: 'LH_ERR_PEER_GONE' }), null);
    m.record(rec({ outcome: 'failed', code: 'ECONNRESET\nboom' }), null);
    m.record(rec({ saveError: 'ENOSPC' }), result('link-limited', 0.01, 1e6));
    const text = await m.text();
    assert.match(text, /outcome="failed",code="LH_ERR_PEER_GONE"\} 1$/m);
    assert.match(text, /outcome="failed",code="other"\} 1$/m);
    assert.match(text, /^longhaul_failed_saves_total\{schedule="lab"\} 1$/m);
  });
});

describe('the /metrics server', () => {
  it('serves GET /metrics only, and says in words why it cannot listen', async () => {
    const m = new ScheduleMetrics();
    const s = await serveMetrics(m, '127.0.0.1', 0);
    try {
      const url = `http://127.0.0.1:${s.address.port}`;
      const ok = await fetch(`${url}/metrics`);
      assert.equal(ok.status, 200);
      assert.match(ok.headers.get('content-type') ?? '', /^application\/openmetrics-text/);
      assert.equal((await fetch(`${url}/`)).status, 404);
      assert.equal((await fetch(`${url}/metrics`, { method: 'POST' })).status, 405);
      await assert.rejects(serveMetrics(m, '127.0.0.1', s.address.port), /--metrics 127\.0\.0\.1:\d+: port \d+ is in use by another program/);

      // A test recorded reaches the served copy; and a scrape is answered while this (main) thread is
      // stuck for 1.5 s: a child process asks 0.7 s after its start, inside the stuck time, and the
      // server thread answers (bound 1 s: served by the stuck thread it would wait out the rest, ≥ 1.2 s).
      m.record(rec({ slot: 9 }), result('link-limited', 0.02, 7e6));
      for (let i = 0; i < 50 && !/ 7000000$/m.test(await (await fetch(`${url}/metrics`)).text()); i++) await new Promise((r) => setTimeout(r, 20));
      assert.match(await (await fetch(`${url}/metrics`)).text(), /^longhaul_throughput_bits_per_second\{[^}]*\} 7000000$/m);
      const child = spawn(process.execPath, [
        '-e',
        `setTimeout(()=>{const t=Date.now();fetch('${url}/metrics').then(r=>r.text()).then(()=>process.stdout.write(String(Date.now()-t)))},700)`,
      ]);
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const done = new Promise((r) => child.once('exit', r));
      await new Promise((r) => setTimeout(r, 300)); // the child is running
      const until = Date.now() + 1500;
      while (Date.now() < until); // the main thread stuck, as when it starts a test
      await done;
      assert.ok(Number(out) < 1000, `answered in ${out} ms while the main thread was stuck for 1.5 s`);
    } finally {
      await s.close();
    }
  });
});
