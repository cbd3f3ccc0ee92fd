/**
 * The seed's case with longhaul's own streams on real kernel TCP: the WAN
 * harness at 4 Mbit/s and 650 ms each way, `longhaul run --window 8760` and
 * `--window 650000` (the seed's DefaultRcvWindow). Prints what the sender's
 * kernel saw (snd_wnd, window scale, RTT, min RTT, congestion control), the
 * rate against the model and the link, per-second receiver rates, and the
 * diagnosis sentence. Needs root; about two minutes.
 *   npm run wan:seed [-- SECONDS [CONGESTION_CONTROL]]   # e.g. -- 30 reno (default: the host's)
 */
import type { LonghaulResult } from '../../electron/contract/result.js';
import { groupDigits } from '../../electron/contract/units.js';
import { modelCeilingBitsPerSec, modelRttSeconds } from './link-config.js';
import { longhaulAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { intervalBitsPerSec, seedFigures, steadyBitsPerSec } from './seed-figures.js';
import { createWanLink, type WanLink } from './wan-link.js';

const RATE = 4_000_000;
const ONE_WAY_MS = 650;
const seconds = Number(process.argv[2] ?? 30);
const congestionControl = process.argv[3] ?? null;

function kbit(v: number | null): string {
  return v === null ? 'unknown' : `${(v / 1e3).toFixed(1)} kbit/s`;
}

function report(label: string, r: LonghaulResult, link: WanLink): void {
  const f = seedFigures(r);
  const rtt = modelRttSeconds(link.config);
  const window = r.params.windowBytes;
  const model = modelCeilingBitsPerSec(RATE, window, rtt);
  const d = r.diagnosis?.[0];
  const out = [
    `${label}: ${r.partial ? `PARTIAL (${r.partialReason ?? ''}) ` : ''}measured ${kbit(f.measuredBitsPerSec)} over ${r.total.seconds?.toFixed(1)} s ` +
      `(${groupDigits(r.total.bytes)} B); model min(rate × 0.956, window ÷ 1.3 s) ${kbit(model)}, ratio ${((f.measuredBitsPerSec ?? 0) / model).toFixed(3)}; vs the 4 Mbit/s link ${((f.measuredBitsPerSec ?? 0) / RATE).toFixed(3)}`,
    `  window applied: ${r.window.applied} (${r.window.note})`,
    `  sender's tcp_info: snd_wnd ${f.sndWndBytes.min ?? 'unknown'}–${f.sndWndBytes.max ?? 'unknown'} B, window scale ${f.sndWscale ?? 'unknown'}, ` +
      `RTT median ${f.rttMs?.toFixed(1) ?? 'unknown'} ms (min ${f.minRttMs?.toFixed(1) ?? 'unknown'} ms), retransmitted segments ${f.retransSegments ?? 'unknown'}, MSS ${r.streams[0]?.send?.socket?.sndMssBytes ?? 'unknown'} B`,
    `  receiver per second, kbit/s: ${intervalBitsPerSec(r)
      .map((v) => (v === null ? '-' : (v / 1e3).toFixed(0)))
      .join(' ')}`,
    `  diagnosis (${d?.verdict ?? 'none'}): ${d?.sentence ?? ''}`,
  ];
  if (window !== null && window > 100_000) {
    const after = steadyBitsPerSec(r, 10, seconds);
    out.splice(
      1,
      0,
      `  after the ramp (seconds 10-${seconds}): ${kbit(after)}, ${((after ?? 0) / RATE).toFixed(3)} of the link rate, ${((after ?? 0) / model).toFixed(3)} of the model`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const skip = await wanSkipReason();
  if (skip) {
    process.stderr.write(`cannot measure: ${skip}\n`);
    process.exitCode = 1;
    return;
  }
  const link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: ONE_WAY_MS });
  try {
    if (congestionControl) {
      for (const exec of [link.execInA.bind(link), link.execInB.bind(link)])
        await exec('sysctl', ['-qw', `net.ipv4.tcp_congestion_control=${congestionControl}`]);
    }
    const cc = (await link.execInA('sysctl', ['-n', 'net.ipv4.tcp_congestion_control'])).stdout.trim();
    process.stdout.write(`link 4 Mbit/s, ${ONE_WAY_MS} ms each way; sender congestion control ${cc}; ${seconds} s runs\n`);
    report('--window 8760', await longhaulAtoB(link, { seconds, flags: ['--window', '8760'] }), link);
    report('--window 650000', await longhaulAtoB(link, { seconds, flags: ['--window', '650000'] }), link);
    process.stdout.write(`router drops: ${JSON.stringify(await link.counters())}\n`);
  } finally {
    await link.destroy();
  }
}

await main();
