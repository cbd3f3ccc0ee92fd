/**
 * Paths whose limit is known by construction, on the kernel WAN harness: the truth matrix the
 * diagnosis is checked against (wan-diagnosis.test.ts, `npm run bench:diagnosis`, and the
 * recorder of test/analysis/fixtures/). Each scenario says how it is built, the verdict a correct
 * diagnosis gives, and the advice topic that must answer it.
 *
 * The congestion control is set per namespace (`net.ipv4.tcp_congestion_control`); outside the
 * initial namespace the kernel allows only those in the global `tcp_allowed_congestion_control`,
 * so `withAllowedCongestionControl` widens that list for the run and restores it afterwards.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AdviceTopic } from '../../electron/contract/advice.js';
import type { DiagnosisCase, FigureName, FindingNote } from '../../electron/contract/finding.js';
import type { LimiterVerdict, LonghaulResult } from '../../electron/contract/result.js';
import { REPO_ROOT } from './helper-build.js';
import { longhaulAtoB } from './longhaul-probe.js';
import { longhaulAtoWineB } from './wine-listener-probe.js';
import { readCmdSync, runCmd } from './run-cmd.js';
import { createWanLink, type WanLinkOptions } from './wan-link.js';

/** One path built for a known limit. */
export interface DiagnosisScenario {
  name: string;
  /** How the path is built, in words (for the bench table and the fixtures' tests). */
  built: string;
  link: WanLinkOptions;
  /** Congestion control of the sender (namespace A). */
  senderCc: 'reno' | 'cubic' | 'bbr';
  /** `net.ipv4.tcp_rmem` in the receiving namespace (B), when capped. */
  receiverRmem?: string;
  /** `net.ipv4.tcp_wmem` in the sending namespace (A), when capped. */
  senderWmem?: string;
  /** CPU the receiving Longhaul's data workers (its reading processes) may use together, % of one core (a cgroup v1 `cpu` quota). */
  receiverCpuPercent?: number;
  /**
   * Both ends on this PC: `longhaul loopback` instead of the harness (no namespaces; `link` is not built,
   * and the congestion control and sysctls are this PC's own).
   */
  loopback?: true;
  /** Extra `longhaul run` flags. */
  flags: string[];
  seconds: number;
  expected: LimiterVerdict;
  /** The cases (contract/finding.ts) the built limit may give, each of the expected verdict; the first is the usual one. */
  cases: DiagnosisCase[];
  /** Figures the finding must carry (e.g. the queueing it states). */
  figures?: FigureName[];
  /** One of these notes must be on the finding (e.g. loss present, not the limit). */
  notes?: FindingNote[];
  /** The advice topic that must answer the verdict. */
  adviceTopic: AdviceTopic;
  /**
   * Who listens in B: absent, the Linux CLI; 'wine', Longhaul's Windows build (the lane's node.exe under
   * Wine, docs/windows-lane.md). Wine rows run in wan-diagnosis-wine.test.ts, which holds the lane's prefix.
   */
  receiverRuntime?: 'wine';
  /** Advice topics that must NOT appear (e.g. no window advice for a paced sender). */
  forbiddenTopics?: AdviceTopic[];
}

const MBIT = 1_000_000;

/** The matrix. Rates and RTTs small enough for a busy 2-core machine; each run ≤ 8 s of data. */
export const SCENARIOS: DiagnosisScenario[] = [
  {
    name: 'window-w',
    built: '20 Mbit/s, 40 ms RTT, CUBIC, longhaul -w 16K (window ÷ RTT ≈ 3.3 Mbit/s)',
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'cubic',
    flags: ['--window', '16K'],
    seconds: 6,
    expected: 'window-limited',
    cases: ['window-limited/requested'],
    adviceTopic: 'longhaul-request',
  },
  {
    name: 'rmem-bbr',
    built: "20 Mbit/s, 40 ms RTT, BBR sender, receiver's tcp_rmem capped at 32 KiB",
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'bbr',
    receiverRmem: '4096 32768 32768',
    flags: [],
    seconds: 6,
    expected: 'window-limited',
    cases: ['window-limited/os-receive-buffer'],
    adviceTopic: 'receive-window',
  },
  {
    name: 'rmem-cubic',
    built: "20 Mbit/s, 40 ms RTT, CUBIC sender, receiver's tcp_rmem capped at 32 KiB",
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'cubic',
    receiverRmem: '4096 32768 32768',
    flags: [],
    seconds: 6,
    expected: 'window-limited',
    cases: ['window-limited/os-receive-buffer'],
    adviceTopic: 'receive-window',
  },
  {
    name: 'link-shallow',
    // Half a BDP: CUBIC backs off to 0.7 of its window on a loss, so a queue above ~0.43 BDP keeps the link busy.
    built: '10 Mbit/s, 40 ms RTT, CUBIC, tbf queue ½ BDP (25 kB, 20 ms), autotuned windows',
    link: { rateBitsPerSec: 10 * MBIT, oneWayDelayMs: 20, queueBytes: 25_000 },
    senderCc: 'cubic',
    flags: [],
    seconds: 8,
    expected: 'link-limited',
    cases: ['link-limited/standing-queue', 'link-limited/queue-overflow', 'link-limited/socket-full'],
    adviceTopic: 'path',
  },
  {
    name: 'bufferbloat-cubic',
    built: '10 Mbit/s, 20 ms RTT, CUBIC, tbf queue 10 × BDP (250 kB ≈ 200 ms)',
    link: { rateBitsPerSec: 10 * MBIT, oneWayDelayMs: 10, queueBytes: 250_000 },
    senderCc: 'cubic',
    flags: [],
    seconds: 8,
    expected: 'link-limited',
    cases: ['link-limited/bufferbloat'],
    figures: ['queueing', 'minRtt'],
    adviceTopic: 'path',
  },
  {
    name: 'loss-cubic',
    built: '50 Mbit/s, 40 ms RTT, CUBIC, 1 % random loss each way (Mathis ≈ 3.5 Mbit/s)',
    link: { rateBitsPerSec: 50 * MBIT, oneWayDelayMs: 20, lossPercent: 1 },
    senderCc: 'cubic',
    flags: [],
    seconds: 8,
    expected: 'loss-limited',
    cases: ['loss-limited/random-loss'],
    figures: ['lossRatio', 'lossModelRate'],
    adviceTopic: 'congestion-control',
  },
  {
    name: 'loss-bbr',
    built: '50 Mbit/s, 40 ms RTT, BBR, 1 % random loss each way (BBR does not back off for random loss)',
    link: { rateBitsPerSec: 50 * MBIT, oneWayDelayMs: 20, lossPercent: 1 },
    senderCc: 'bbr',
    flags: [],
    seconds: 8,
    expected: 'link-limited',
    cases: ['link-limited/socket-full', 'link-limited/standing-queue', 'link-limited/queue-overflow'],
    notes: ['loss-present-bbr', 'loss-present'],
    adviceTopic: 'path',
  },
  {
    name: 'wmem-bbr',
    // A paced sender: on this kernel (6.18) an unpaced CUBIC sender queued 1.2-2.2 MB (ss -tm: w) against a
    // 128 KiB sk_sndbuf, so the cap did not bind; with pacing (BBR, or SO_MAX_PACING_RATE) it does.
    built:
      "100 Mbit/s, 80 ms RTT (BDP 1 MB), BBR sender, sender's tcp_wmem capped at 128 KiB: at most ~128 KiB queued ÷ 80 ms ≈ 13 Mbit/s, an eighth of the link",
    link: { rateBitsPerSec: 100 * MBIT, oneWayDelayMs: 40 },
    senderCc: 'bbr',
    senderWmem: '4096 131072 131072',
    flags: [],
    seconds: 6,
    expected: 'send-buffer-limited',
    cases: ['send-buffer-limited/send-buffer'],
    adviceTopic: 'send-buffer',
  },
  {
    name: 'bufferbloat-bbr',
    // BBR keeps about one BDP queued whatever the queue's depth, so the queueing is stated and not called bufferbloat.
    built:
      '10 Mbit/s, 40 ms RTT, BBR, tbf queue 10 × BDP (500 kB ≈ 400 ms): the BBR window (2 × BDP) leaves about 1 BDP (~40 ms) queued, not the 400 ms the queue holds',
    link: { rateBitsPerSec: 10 * MBIT, oneWayDelayMs: 20, queueBytes: 500_000 },
    senderCc: 'bbr',
    flags: [],
    seconds: 8,
    expected: 'link-limited',
    cases: ['link-limited/socket-full', 'link-limited/standing-queue', 'link-limited/queue-overflow'],
    figures: ['queueing'],
    adviceTopic: 'path',
  },
  {
    name: 'unequal-n',
    // BBR's cwnd (2 × BDP) does not bind, so the verdict rests on the busy share: summed over the whole
    // run the streams that finished first read as idle (0.68-0.80 busy in three runs here).
    built: '20 Mbit/s, 40 ms RTT, BBR, -P 8 -n 12M (1.5 MiB per stream, ≈ 5 s): the streams share the link unequally and finish seconds apart',
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'bbr',
    flags: ['-P', '8', '-n', '12M'],
    seconds: 8,
    expected: 'link-limited',
    cases: ['link-limited/socket-full', 'link-limited/standing-queue', 'link-limited/queue-overflow'],
    adviceTopic: 'path',
  },
  {
    name: 'window-w-wine',
    built: '20 Mbit/s, 40 ms RTT, CUBIC, longhaul -w 16K, receiver: the Windows build under Wine',
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'cubic',
    flags: ['--window', '16K'],
    seconds: 6,
    expected: 'window-limited',
    cases: ['window-limited/requested'],
    adviceTopic: 'longhaul-request',
    receiverRuntime: 'wine',
  },
  {
    name: 'receiver-cpu',
    // Fast and short, so only the reader can be the limit: unquota'd its thread ran at 0.26-0.77 of a core for
    // 2.1-3.5 Gbit/s on this loaded VM; held to 5 % of a core it was runnable ~95 % of the time and carried 0.33-1 Gbit/s.
    built: "10 Gbit/s, no added delay (sub-ms RTT), CUBIC; the receiver's data worker held to 5 % of one core (cgroup v1 cpu quota)",
    link: { rateBitsPerSec: 10_000 * MBIT, oneWayDelayMs: 0 },
    senderCc: 'cubic',
    receiverCpuPercent: 5,
    flags: [],
    seconds: 5,
    expected: 'receiver-limited',
    cases: ['receiver-limited/cpu-starved'],
    figures: ['readerWaitShare'],
    adviceTopic: 'application',
  },
  {
    name: 'loopback',
    // Sender, receiver and the kernel's copying share this PC's cores: on the 2-core VM the data threads ran near half
    // a core each at 12-20 Gbit/s while /proc/stat counted the cores ~99 % busy. (On a PC with cores to spare one
    // thread reaches a full core instead: cpu-limited too, naming the thread.)
    built: "longhaul loopback, 1 stream, both ends on this PC (127.0.0.1), no link: the limit is this PC's CPU",
    link: { rateBitsPerSec: 10_000 * MBIT, oneWayDelayMs: 0 }, // not built: loopback
    loopback: true,
    senderCc: 'cubic',
    flags: [],
    seconds: 3,
    expected: 'cpu-limited',
    cases: ['cpu-limited/same-pc', 'cpu-limited/process'],
    adviceTopic: 'cpu',
  },
  {
    name: 'rate-limited-sender',
    built: '20 Mbit/s, 40 ms RTT, CUBIC, a rate-limited sender application: longhaul -b 5M (paced at 5 Mbit/s per stream)',
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'cubic',
    flags: ['--bitrate', '5M'],
    seconds: 6,
    expected: 'application-limited',
    cases: ['application-limited/paced'],
    figures: ['pacedRate'],
    adviceTopic: 'application',
    forbiddenTopics: ['receive-window', 'send-buffer', 'longhaul-request', 'window-scaling', 'path'],
  },
];

const ALLOWED = '/proc/sys/net/ipv4/tcp_allowed_congestion_control';

/** Run `fn` with `cc` allowed in namespaces other than the initial one; the global list is restored afterwards. */
export async function withAllowedCongestionControl<T>(cc: string, fn: () => Promise<T>): Promise<T> {
  const before = readCmdSync('cat', [ALLOWED]).trim();
  if (!before) throw new Error(`could not read ${ALLOWED}; refusing to change it`);
  const widened = before.split(/\s+/).includes(cc) ? null : `${before} ${cc}`;
  if (widened) await runCmd('sysctl', ['-qw', `net.ipv4.tcp_allowed_congestion_control=${widened}`]);
  try {
    return await fn();
  } finally {
    if (widened) await runCmd('sysctl', ['-qw', `net.ipv4.tcp_allowed_congestion_control=${before}`]);
  }
}

const CPU_CGROUP_ROOT = '/sys/fs/cgroup/cpu';

/**
 * Run `fn` with a cgroup v1 `cpu` group limited to `percent` % of one core; `fn` gets a function that
 * moves a process (all its threads) into it. The group is removed afterwards (its processes have exited
 * or are moved back to the root group first).
 */
async function withCpuQuota<T>(percent: number, fn: (join: (pid: number) => Promise<void>) => Promise<T>): Promise<T> {
  const dir = path.join(CPU_CGROUP_ROOT, `lhwan-diag-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  await mkdir(dir);
  try {
    const periodUs = 100_000;
    await writeFile(path.join(dir, 'cpu.cfs_period_us'), String(periodUs));
    await writeFile(path.join(dir, 'cpu.cfs_quota_us'), String(Math.max(1000, Math.round((periodUs * percent) / 100))));
    return await fn((pid) => writeFile(path.join(dir, 'cgroup.procs'), String(pid)));
  } finally {
    const left = (await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    for (const pid of left) await writeFile(path.join(CPU_CGROUP_ROOT, 'cgroup.procs'), pid).catch(() => undefined);
    await rmdir(dir).catch(() => undefined);
  }
}

/** How often the quota's group looks for the listener's new data workers, ms (a run's data starts after its streams are set up). */
const JOIN_POLL_MS = 20;

/**
 * Move every child `pid` forks (the listener's data workers, which read the streams) into the quota's
 * group as they appear, until stopped. Only the reading processes are held back: with the whole
 * listener at 1 % of a core its control channel timed out before any data moved.
 */
function joinChildrenOf(pid: number, join: (pid: number) => Promise<void>): { stop: () => void } {
  const joined = new Set<number>();
  const look = async (): Promise<void> => {
    const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const children = (await readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '')).split(/\s+/).filter(Boolean).map(Number);
      for (const child of children) {
        if (joined.has(child)) continue;
        joined.add(child);
        await join(child).catch(() => joined.delete(child)); // it exited, or is not ours yet: try again next time
      }
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void look().finally(() => (busy = false));
  }, JOIN_POLL_MS);
  return { stop: () => clearInterval(timer) };
}

/** `longhaul loopback` on this PC (bounded), resolving with its result. */
async function runLoopback(s: DiagnosisScenario): Promise<LonghaulResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'longhaul-diag-loopback-'));
  try {
    const json = path.join(dir, 'result.json');
    await runCmd(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'longhaul.js'), 'loopback', '-t', String(s.seconds), '--json', json, ...s.flags],
      s.seconds * 1000 + 60_000,
    );
    return JSON.parse(await readFile(json, 'utf8')) as LonghaulResult;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Build the scenario's path, run Longhaul A→B through it, tear the path down; resolves with the result. */
export async function runScenario(s: DiagnosisScenario): Promise<LonghaulResult> {
  if (s.loopback) return runLoopback(s);
  return withAllowedCongestionControl(s.senderCc, async () => {
    const link = await createWanLink(s.link);
    try {
      await link.execInA('sysctl', ['-qw', `net.ipv4.tcp_congestion_control=${s.senderCc}`]);
      await link.execInB('sysctl', ['-qw', `net.ipv4.tcp_congestion_control=${s.senderCc}`]);
      if (s.senderWmem) await link.execInA('sysctl', ['-qw', `net.ipv4.tcp_wmem=${s.senderWmem}`]);
      if (s.receiverRmem) await link.execInB('sysctl', ['-qw', `net.ipv4.tcp_rmem=${s.receiverRmem}`]);
      if (s.receiverRuntime === 'wine') return await longhaulAtoWineB(link, { seconds: s.seconds, flags: s.flags });
      if (!s.receiverCpuPercent) return await longhaulAtoB(link, { seconds: s.seconds, flags: s.flags });
      return await withCpuQuota(s.receiverCpuPercent, async (join) => {
        let joiner = null as { stop: () => void } | null;
        try {
          return await longhaulAtoB(link, { seconds: s.seconds, flags: s.flags, onListener: async (pid) => void (joiner = joinChildrenOf(pid, join)) });
        } finally {
          joiner?.stop();
        }
      });
    } finally {
      await link.destroy();
    }
  });
}
