/**
 * The kernel half of `npm run bench:link`: the same cell through the WAN
 * harness (test/wan/: namespaces A – R – B, tbf for the rate, an NFQUEUE delay
 * line, iptables random drops for loss) with longhaul's own streams:
 * `longhaul listen --once` in B, `longhaul run --window W -t S` in A.
 *
 * Measured at the receiver, on the same time base as the proxy half (from the
 * moment the sender starts): the receiver's clock starts about one one-way
 * delay after the sender's (the start message crosses the link), so its
 * cumulative byte count is read at (t − one-way delay), interpolated within
 * the 0.5 s intervals. Bytes the sender's socket still held at its end arrive
 * later and are not counted, as in the proxy half (kernel-run.ts cuts that drain).
 */
import { wanSkipReason } from '../wan/preflight.js';
import { seedFigures } from '../wan/seed-figures.js';
import { createWanLink, type WanLink } from '../wan/wan-link.js';
import { runCell, type ReceivedInterval } from './kernel-run.js';
import { steadySecondsOf, type LinkCell, type PathMeasurement } from './link-matrix.js';

const INTERVAL_SECONDS = 0.5;

/** Options of the kernel path: which congestion control the two end namespaces use (null = the host's default). */
interface KernelPathOptions {
  congestionControl: string | null;
}

/** Received bytes from the receiver's t = 0 up to `t` (seconds, receiver clock), linear within an interval. */
export function receivedUpTo(intervals: readonly ReceivedInterval[], t: number): number | null {
  let bytes = 0;
  let start = 0;
  for (const i of intervals) {
    if (i.receivedBytes === null) return null;
    if (i.t <= t) {
      bytes += i.receivedBytes;
    } else {
      const share = i.seconds > 0 ? Math.max(0, Math.min(1, (t - start) / i.seconds)) : 0;
      return bytes + i.receivedBytes * share;
    }
    start = i.t;
  }
  return bytes;
}

/**
 * Steady-state (the last `steadySeconds`, default the second half) and whole-run rates from
 * receiver intervals, with the sender's start at receiver time −offset; null when the
 * intervals do not reach the run's end.
 */
export function cellRates(
  intervals: readonly ReceivedInterval[],
  seconds: number,
  offsetSeconds: number,
  steadySeconds = seconds / 2,
): Omit<PathMeasurement, 'note'> {
  const last = intervals[intervals.length - 1];
  if (!last || last.t < seconds - offsetSeconds - 1e-3) return { steadyBitsPerSec: null, wholeRunBitsPerSec: null };
  const at = (senderT: number): number | null => receivedUpTo(intervals, Math.max(0, senderT - offsetSeconds));
  const whole = at(seconds);
  const half = at(seconds - steadySeconds);
  return {
    steadyBitsPerSec: whole === null || half === null ? null : ((whole - half) * 8) / steadySeconds,
    wholeRunBitsPerSec: whole === null ? null : (whole * 8) / seconds,
  };
}

/**
 * The sender namespace's TCP counters (`nstat -asz`: absolute, the namespace is this cell's own,
 * so they count from its start): loss recoveries and timeouts, to set beside the proxy's halvings.
 */
async function senderTcpCounters(link: WanLink): Promise<string> {
  try {
    const { stdout } = await link.execInA('nstat', ['-asz', 'TcpRetransSegs', 'TcpExtTCPSackRecovery', 'TcpExtTCPTimeouts', 'TcpExtTCPLossProbes']);
    const v = (name: string): string => new RegExp(`^${name}\\s+(\\d+)`, 'm').exec(stdout)?.[1] ?? 'unknown';
    return `retransmitted ${v('TcpRetransSegs')} segments in ${v('TcpExtTCPSackRecovery')} SACK recoveries, ${v('TcpExtTCPTimeouts')} timeouts (RTO), ${v('TcpExtTCPLossProbes')} loss probes`;
  } catch (err) {
    return `TCP counters unknown (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** Run one cell through a fresh kernel WAN link; torn down whatever happens. */
export async function measureKernelPath(cell: LinkCell, opts: KernelPathOptions = { congestionControl: null }): Promise<PathMeasurement> {
  const skip = await wanSkipReason();
  if (skip) return { steadyBitsPerSec: null, wholeRunBitsPerSec: null, note: `kernel: ${skip}` };
  const oneWayMs = cell.rttMs / 2;
  const link = await createWanLink({
    rateBitsPerSec: cell.rateBitsPerSec,
    oneWayDelayMs: oneWayMs,
    lossPercent: cell.lossRatio * 100,
    lossPattern: cell.lossPattern ?? 'random',
  });
  try {
    if (opts.congestionControl) {
      for (const exec of [link.execInA.bind(link), link.execInB.bind(link)]) {
        await exec('sysctl', ['-qw', `net.ipv4.tcp_congestion_control=${opts.congestionControl}`]);
      }
    }
    const cc = (await link.execInA('sysctl', ['-n', 'net.ipv4.tcp_congestion_control'])).stdout.trim();
    const offset = oneWayMs / 1000;
    // Read at the cell's end, not after the run's drain (the proxy half counts the cell's time only).
    let counters: Promise<string> = Promise.resolve('TCP counters unknown (the run ended early)');
    const atEnd = setTimeout(() => {
      counters = senderTcpCounters(link);
    }, cell.seconds * 1000);
    const run = await runCell(link, ['--window', String(cell.windowBytes), '-i', String(INTERVAL_SECONDS)], cell.seconds, cell.seconds - offset).finally(() =>
      clearTimeout(atEnd),
    );
    const drops = await link.counters();
    const r = run.result;
    const f = r ? seedFigures(r) : null;
    const kernelSaw = f
      ? `snd_wnd ${f.sndWndBytes.max ?? 'unknown'} B, RTT ${f.rttMs?.toFixed(0) ?? 'unknown'} ms (min ${f.minRttMs?.toFixed(0) ?? 'unknown'}), retrans ${f.retransSegments ?? 'unknown'}`
      : 'cut while the sender drained its socket after the run (rates from the live CSV; no TCP_INFO)';
    const note =
      `kernel: ${cc}, ${kernelSaw}, dropped ${drops.lossDrops} (loss) + ${drops.queueDropsToB} (queue), ${await counters} in the cell's ${cell.seconds} s` +
      `${r?.partial ? `, PARTIAL: ${r.partialReason ?? ''}` : ''}; ${r?.diagnosis?.[0]?.verdict ?? 'no diagnosis'}`;
    return { ...cellRates(run.intervals, cell.seconds, offset, steadySecondsOf(cell)), note };
  } finally {
    await link.destroy();
  }
}
