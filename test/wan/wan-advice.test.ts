/**
 * The seed case end to end on real kernel TCP (4 Mbit/s, 650 ms each way, Reno):
 * `longhaul run --window 8760 --path-rate 4mbit` is told which setting of the
 * receiving PC to change and to what (the window that fills the path,
 * 650,000 bytes), and its what-if predicts the rate of that window. Two more
 * runs, with that window and with 256 KiB, then measure (after the slow-start
 * ramp the what-if states) within ±10 % of what the first run's model said.
 * Takes about 100 s (three runs at a 1.3 s RTT: 10, 21 and 20 s of data plus handshakes and link setup).
 * Needs root; skips with the reason otherwise. Writes the first run's result and
 * HTML report to test/e2e/screenshots/ for the report's browser test.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { predict } from '../../electron/contract/what-if.js';
import { whatIfOf } from '../../electron/contract/what-if-result.js';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { REPO } from '../helpers/processes.js';
import { longhaulAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { steadyBitsPerSec } from './seed-figures.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason()) ?? false;
const RATE = 4_000_000;
const ONE_WAY_MS = 650;
const OUT = path.join(REPO, 'test', 'e2e', 'screenshots');
const B_RMEM = '4096 87380 131072';

function lastT(r: LonghaulResult): number {
  return r.intervals.at(-1)?.t ?? 0;
}

describe('the seed case on the kernel WAN harness: advice, what-if, and a second run that checks them', { skip, timeout: 240_000 }, () => {
  let link: WanLink | undefined;
  let seed: LonghaulResult | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: ONE_WAY_MS });
    // Reno at both ends, as in wan-window.test.ts: the host's BBR paces a small window's few segments.
    for (const exec of [link.execInA.bind(link), link.execInB.bind(link)]) await exec('sysctl', ['-qw', 'net.ipv4.tcp_congestion_control=reno']);
    // The receiving PC's OS caps autotuning at 128 KiB, as the seed's receiver capped its window: the advice
    // must name it with the value it read there and sent (tcp_rmem is per network namespace). The runs
    // set --window, which sets SO_RCVBUF itself, so this cap does not change what they measure.
    await link.execInB('sysctl', ['-qw', `net.ipv4.tcp_rmem=${B_RMEM}`]);
  });
  after(async () => {
    await link?.destroy();
  });

  it("--window 8760: advice names the receiving PC's window setting and 650,000 B; the what-if says ~3.8 Mbit/s", { timeout: 60_000 }, async (t) => {
    seed = await longhaulAtoB(link!, { seconds: 10, flags: ['--window', '8760', '--path-rate', '4mbit'] });
    await mkdir(OUT, { recursive: true });
    await writeFile(path.join(OUT, 'seed-result.json'), JSON.stringify(seed, null, 2));
    await writeFile(path.join(OUT, 'seed-report.html'), formatHtmlReport(seed));
    const advice = seed.advice ?? [];
    for (const a of advice) t.diagnostic(`${a.side} ${a.topic}: ${a.setting} | now ${a.currentValue ?? 'unknown'} | ${a.neededValue}`);
    assert.equal(seed.diagnosis?.[0]?.verdict, 'window-limited', seed.diagnosis?.[0]?.sentence);
    assert.equal(seed.responder.os?.platform, 'linux', 'the responder said its OS in its hello');
    const request = advice.find((a) => a.topic === 'longhaul-request');
    const rmem = advice.find((a) => a.topic === 'receive-window' && a.side === 'responder' && a.setting.startsWith('net.ipv4.tcp_rmem'));
    assert.ok(request && rmem, "the --window request and the receiving PC's tcp_rmem are advised");
    assert.equal(rmem.thisPc, false);
    assert.equal(rmem.currentValue, B_RMEM, "the partner's own value, sent in its results");
    const fill = Number(/at least ([\d,]+) bytes per stream/.exec(request.neededValue)![1]!.replace(/,/g, ''));
    // The measured RTT is the link's 1.3 s plus a few ms of serialisation: the BDP within 1 % of 650,000 B.
    assert.ok(Math.abs(fill - 650_000) <= 6_500, `window that fills the path ${fill} B`);
    assert.match(rmem.neededValue, new RegExp(`at least ${(2 * fill).toLocaleString('en-US')} bytes`));
    const w = whatIfOf(seed)!;
    const fillCase = w.cases.find((c) => c.label.startsWith('the window that fills'))!.prediction;
    t.diagnostic(
      `what-if for ${fill} B: ${(fillCase.bitsPerSecond! / 1e6).toFixed(2)} Mbit/s after ${fillCase.rampRoundTrips} round trips (${fillCase.rampSeconds.toFixed(1)} s)`,
    );
    assert.equal((fillCase.bitsPerSecond! / 1e6).toFixed(1), '3.8');
    assert.ok(fillCase.rampRoundTrips >= 5 && fillCase.rampSeconds > 6, 'the what-if states the ramp');
    const measured = steadyBitsPerSec(seed, 2 * w.path.rttSeconds, lastT(seed) - w.path.rttSeconds)!;
    const model = w.today.bitsPerSecond!;
    t.diagnostic(`8,760 B: measured ${(measured / 1e3).toFixed(1)} kbit/s, model ${(model / 1e3).toFixed(1)} kbit/s, ratio ${(measured / model).toFixed(3)}`);
    assert.ok(Math.abs(measured / model - 1) <= 0.1, `8,760 B within ±10 %: ratio ${(measured / model).toFixed(3)}`);
  });

  for (const which of ['fill', 262_144] as const) {
    it(
      `a second run with ${which === 'fill' ? 'the advised window' : '262,144 B'} measures, after its ramp, within ±10 % of the first run's what-if`,
      { timeout: 80_000 },
      async (t) => {
        assert.ok(seed, 'the seed run ran');
        const w = whatIfOf(seed)!;
        const window = which === 'fill' ? w.cases.find((c) => c.label.startsWith('the window that fills'))!.prediction.windowBytes! : which;
        const p = predict(w.path, { windowBytes: window, streams: 1, mssBytes: w.mssBytes });
        // Long enough for the ramp plus ten round trips of steady state.
        const seconds = Math.ceil(p.rampSeconds + 10 * w.path.rttSeconds);
        const r = await longhaulAtoB(link!, { seconds, flags: ['--window', String(window), '--path-rate', '4mbit'] });
        const from = p.rampSeconds + 2 * w.path.rttSeconds;
        const measured = steadyBitsPerSec(r, from, lastT(r) - w.path.rttSeconds)!;
        t.diagnostic(
          `${window} B: ${seconds} s run, steady from ${from.toFixed(1)} s: measured ${(measured / 1e6).toFixed(3)} Mbit/s, ` +
            `model ${(p.bitsPerSecond! / 1e6).toFixed(3)} Mbit/s (bound ${p.bound}), ratio ${(measured / p.bitsPerSecond!).toFixed(3)}; verdict ${r.diagnosis?.[0]?.verdict}`,
        );
        assert.equal(r.partial, false, r.partialReason ?? '');
        assert.ok(Math.abs(measured / p.bitsPerSecond! - 1) <= 0.1, `within ±10 %: ratio ${(measured / p.bitsPerSecond!).toFixed(3)}`);
      },
    );
  }
});
