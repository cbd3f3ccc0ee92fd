/**
 * Measurements through a WAN link with standard tools: ping for the RTT,
 * iperf3 for kernel-TCP throughput. Both run in A toward B, bounded in time.
 */
import { LonghaulError } from '../../electron/util/errors.js';
import type { WanLink } from './wan-link.js';

/** ping's summary, milliseconds. */
interface PingResult {
  transmitted: number;
  received: number;
  minMs: number;
  avgMs: number;
  maxMs: number;
}

/** Ping B from A `count` times, `intervalSec` apart. */
export async function pingAtoB(link: WanLink, count: number, intervalSec = 0.2): Promise<PingResult> {
  const rttBoundMs = 2 * link.config.oneWayDelayMs + 2_000;
  const deadlineSec = Math.ceil((count * intervalSec * 1000 + rttBoundMs) / 1000);
  const { stdout } = await link.execInA(
    'ping',
    ['-n', '-q', '-c', String(count), '-i', String(intervalSec), '-w', String(deadlineSec), link.bAddr],
    deadlineSec * 1000 + 5_000,
  );
  const counts = /(\d+) packets transmitted, (\d+) received/.exec(stdout);
  const rtt = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\//.exec(stdout);
  if (!counts || !rtt) throw new LonghaulError('LH_ERR_IO', `cannot read ping's output: ${stdout.trim()}`);
  return {
    transmitted: Number(counts[1]),
    received: Number(counts[2]),
    minMs: Number(rtt[1]),
    avgMs: Number(rtt[2]),
    maxMs: Number(rtt[3]),
  };
}

/** What one iperf3 run reported. */
interface IperfResult {
  /** Receiver's payload rate over the measured part (after the omitted ramp), bits per second. */
  receivedBitsPerSec: number;
  /** Sender's retransmitted segments (from TCP_INFO). */
  retransmits: number;
  /** Receiver-side rate of each interval (1 s), bits per second, omitted intervals excluded. */
  intervalBitsPerSec: number[];
}

interface IperfOptions {
  seconds: number;
  /** Seconds at the start left out of the result (iperf3 -O): the slow-start ramp. */
  omitSeconds?: number;
  /** Socket buffer size iperf3 sets on both ends (-w), bytes; omitted = autotuning. */
  windowBytes?: number;
}

interface IperfJson {
  error?: string;
  intervals?: { sum?: { bits_per_second?: number; omitted?: boolean } }[];
  end?: { sum_received?: { bits_per_second?: number }; sum_sent?: { retransmits?: number } };
  /** The server's own report (--get-server-output with a -J server): the receiver's intervals. */
  server_output_json?: IperfJson;
}

/** Poll `ss` in B until something listens on `port` (iperf3 -J prints nothing until it is done). */
async function waitForListenInB(link: WanLink, port: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { stdout } = await link.execInB('ss', ['-Htln', `sport = :${port}`]);
    if (stdout.trim()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new LonghaulError('LH_ERR_IO', `iperf3 server in B did not listen on port ${port} within ${timeoutMs} ms`);
}

const IPERF_PORT = '5201';

/** iperf3 from A (client, sending) to a one-off server in B. */
export async function iperfAtoB(link: WanLink, opts: IperfOptions): Promise<IperfResult> {
  // The server lives in B's own namespace, so the fixed port cannot collide with anything.
  const server = link.spawnInB('iperf3', ['-s', '-1', '-J', '-B', link.bAddr, '-p', IPERF_PORT], { stdio: 'ignore' });
  try {
    await waitForListenInB(link, IPERF_PORT, 5_000);
    const args = ['-c', link.bAddr, '-p', IPERF_PORT, '-J', '--get-server-output', '-t', String(opts.seconds), '--connect-timeout', '10000'];
    if (opts.omitSeconds) args.push('-O', String(opts.omitSeconds));
    if (opts.windowBytes) args.push('-w', String(opts.windowBytes));
    const boundMs = (opts.seconds + (opts.omitSeconds ?? 0)) * 1000 + 4 * (2 * link.config.oneWayDelayMs) + 15_000;
    const { stdout } = await link.execInA('iperf3', args, boundMs);
    const json = JSON.parse(stdout) as IperfJson;
    if (json.error) throw new LonghaulError('LH_ERR_IO', `iperf3: ${json.error}`);
    const rate = json.end?.sum_received?.bits_per_second;
    if (typeof rate !== 'number') throw new LonghaulError('LH_ERR_IO', 'iperf3 reported no received rate');
    return {
      receivedBitsPerSec: rate,
      retransmits: json.end?.sum_sent?.retransmits ?? 0,
      // The client's own intervals count bytes handed to its socket; the server's count bytes that arrived.
      intervalBitsPerSec: (json.server_output_json?.intervals ?? []).filter((i) => !i.sum?.omitted).map((i) => i.sum?.bits_per_second ?? 0),
    };
  } finally {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
}
