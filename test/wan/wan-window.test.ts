/**
 * The seed's question answered on real kernel TCP: `longhaul run --window 8760`
 * through a rate- and delay-limited link is window-limited at window ÷ RTT, and
 * the diagnosis says so with the kernel's own window, RTT and scale; a window
 * of one bandwidth-delay product runs at the link's rate and is not called
 * window-limited. The seed's link (4 Mbit/s, 650 ms each way) scaled to 100 ms
 * each way so a run takes seconds (`npm run wan:seed` measures the real one).
 * Needs root; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { groupDigits } from '../../electron/contract/units.js';
import { modelCeilingBitsPerSec, modelRttSeconds } from './link-config.js';
import { longhaulAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { seedFigures, steadyBitsPerSec } from './seed-figures.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason()) ?? false;
const RATE = 4_000_000;
const ONE_WAY_MS = 100;
const SECONDS = 6;

function kbit(v: number | null): string {
  return v === null ? 'unknown' : `${(v / 1e3).toFixed(1)} kbit/s`;
}

function diagnosisOf(r: LonghaulResult): NonNullable<LonghaulResult['diagnosis']>[number] {
  const d = r.diagnosis?.find((x) => x.direction === 'controllerToResponder');
  assert.ok(d, 'the result has a diagnosis for the controller → responder direction');
  return d;
}

describe(`longhaul run --window through a 4 Mbit/s, ${2 * ONE_WAY_MS} ms RTT kernel link: the diagnosis`, { skip, timeout: 150_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: ONE_WAY_MS });
    // Reno at both ends: the host's BBR paces the few segments of an 8,688 B window, so the
    // kernel booked only ~50 % of the busy time as receive-window-limited and the verdict
    // flipped between runs (measured 51 %, 53 %, and once "link-limited").
    for (const exec of [link.execInA.bind(link), link.execInB.bind(link)]) await exec('sysctl', ['-qw', 'net.ipv4.tcp_congestion_control=reno']);
  });
  after(async () => {
    await link?.destroy();
  });

  it('--window 8760: about window ÷ RTT, window-limited, the sentence names the window and scale 0', { timeout: 60_000 }, async (t) => {
    const r = await longhaulAtoB(link!, { seconds: SECONDS, flags: ['--window', '8760'] });
    const f = seedFigures(r);
    const d = diagnosisOf(r);
    const model = modelCeilingBitsPerSec(RATE, 8760, modelRttSeconds(link!.config));
    t.diagnostic(
      `measured ${kbit(f.measuredBitsPerSec)} vs 8,760 B / ${2 * ONE_WAY_MS} ms = ${kbit(model)} (ratio ${((f.measuredBitsPerSec ?? 0) / model).toFixed(3)}); ` +
        `snd_wnd ${f.sndWndBytes.min}–${f.sndWndBytes.max} B, scale ${f.sndWscale}, kernel RTT ${f.rttMs?.toFixed(1)} ms (min ${f.minRttMs?.toFixed(1)})`,
    );
    t.diagnostic(`${d.verdict}: ${d.sentence}`);

    assert.equal(r.partial, false, `${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
    assert.equal(r.window.applied, true, r.window.note);
    assert.equal(f.sndWscale, 0, 'the receiver announced window scale 0');
    assert.equal(r.streams[0]!.receive!.socket!.rcvWscale, 0);
    // The kernel advertises about the request (8,664-8,760 B; Linux ≥ 6.5 sometimes 13,140); the doubled buffer bounds it.
    assert.ok(f.sndWndBytes.min! > 0 && f.sndWndBytes.max! <= 17_520, `snd_wnd ${f.sndWndBytes.min}–${f.sndWndBytes.max} B`);
    assert.ok(f.rttMs !== null && f.rttMs >= 2 * ONE_WAY_MS * 0.95 && f.rttMs <= 2 * ONE_WAY_MS * 1.5, `kernel RTT ${f.rttMs} ms`);
    // The sender sends whole segments only (sender-side silly-window avoidance): of an 8,664 B
    // window it uses 5 × 1,448 = 7,240 B per round trip, of 8,688 B all 6 segments. Which of
    // the two the receiver advertises varies from run to run; both were measured here.
    const mss = r.streams[0]!.send!.socket!.sndMssBytes!;
    const usable = Math.floor(f.sndWndBytes.min! / mss) * mss;
    const usableModel = (usable * 8) / modelRttSeconds(link!.config);
    const got = f.measuredBitsPerSec!;
    t.diagnostic(`whole segments in the window: ${groupDigits(usable)} B → ${kbit(usableModel)} (ratio ${(got / usableModel).toFixed(3)})`);
    assert.ok(Math.abs(got / usableModel - 1) <= 0.2, `${kbit(got)} vs whole segments of the window ÷ RTT ${kbit(usableModel)}`);
    assert.ok(got <= model * 1.05, `${kbit(got)} cannot beat 8,760 B ÷ RTT = ${kbit(model)}`);

    assert.equal(d.verdict, 'window-limited', d.sentence);
    assert.equal(d.numbers.windowScale, 0);
    const wnd = d.numbers.windowBytes!;
    assert.ok(wnd > 0 && wnd <= 17_520, `diagnosis window ${wnd} B`);
    assert.ok(d.sentence.includes(`${groupDigits(wnd)} B`), `the sentence names the effective window ${groupDigits(wnd)} B: ${d.sentence}`);
    assert.match(d.sentence, /scale 0/);
    assert.ok(Math.abs(got / d.numbers.windowBitsPerSecond! - 1) <= 0.2, `measured vs the kernel's own window ÷ RTT ${kbit(d.numbers.windowBitsPerSecond)}`);
  });

  // A window of exactly one BDP is now advertised as exactly that (TCP_WINDOW_CLAMP; before, Linux
  // advertised ~1.26 ×): in flight = the path, the kernel books half the busy time as
  // receive-window-limited and the verdict is a coin toss, rightly. 2.5 × leaves the window out of it.
  it('--window of 2.5 BDP (250,000 B): about the link rate after the ramp, and not window-limited', { timeout: 60_000 }, async (t) => {
    const bdpBytes = (RATE / 8) * modelRttSeconds(link!.config);
    const r = await longhaulAtoB(link!, { seconds: SECONDS, flags: ['--window', String(2.5 * bdpBytes)] });
    const f = seedFigures(r);
    const d = diagnosisOf(r);
    const model = modelCeilingBitsPerSec(RATE, null, modelRttSeconds(link!.config));
    // After slow start (about 1 s at this RTT), up to the end of sending.
    const steady = steadyBitsPerSec(r, 2, SECONDS);
    t.diagnostic(
      `steady ${kbit(steady)} vs the link's payload rate ${kbit(model)} (ratio ${((steady ?? 0) / model).toFixed(3)}); whole run ${kbit(f.measuredBitsPerSec)}; ` +
        `snd_wnd ${f.sndWndBytes.max} B, scale ${f.sndWscale}, kernel RTT ${f.rttMs?.toFixed(1)} ms (min ${f.minRttMs?.toFixed(1)})`,
    );
    t.diagnostic(`${d.verdict}: ${d.sentence}`);

    assert.equal(r.partial, false, `${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
    assert.equal(r.window.applied, true, r.window.note);
    assert.ok(f.sndWscale! > 0, `window scale ${f.sndWscale}`);
    assert.ok(steady !== null && Math.abs(steady / model - 1) <= 0.1, `steady ${kbit(steady)} vs ${kbit(model)}`);
    assert.notEqual(d.verdict, 'window-limited', d.sentence);
    assert.notEqual(d.verdict, 'unknown', d.sentence);
  });
});
