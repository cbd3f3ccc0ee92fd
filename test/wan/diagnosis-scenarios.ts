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
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AdviceTopic } from '../../electron/contract/advice.js';
import type { LimiterVerdict, LonghaulResult } from '../../electron/contract/result.js';
import { longhaulAtoB } from './longhaul-probe.js';
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
  /** CPU the receiving Longhaul may use, % of one core (a cgroup v1 `cpu` quota on the listener). */
  receiverCpuPercent?: number;
  /** Extra `longhaul run` flags. */
  flags: string[];
  seconds: number;
  expected: LimiterVerdict;
  /** The advice topic that must answer the verdict. */
  adviceTopic: AdviceTopic;
  /** A word the sentence must contain (e.g. 'bufferbloat'). */
  sentenceMatch?: RegExp;
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
    adviceTopic: 'path',
    sentenceMatch: /bufferbloat/,
  },
  {
    name: 'loss-cubic',
    built: '50 Mbit/s, 40 ms RTT, CUBIC, 1 % random loss each way (Mathis ≈ 3.5 Mbit/s)',
    link: { rateBitsPerSec: 50 * MBIT, oneWayDelayMs: 20, lossPercent: 1 },
    senderCc: 'cubic',
    flags: [],
    seconds: 8,
    expected: 'loss-limited',
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
    adviceTopic: 'path',
    sentenceMatch: /not the limit/,
  },
  {
    name: 'rate-limited-sender',
    built: '20 Mbit/s, 40 ms RTT, CUBIC, a rate-limited sender application: longhaul -b 5M (paced at 5 Mbit/s per stream)',
    link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 },
    senderCc: 'cubic',
    flags: ['--bitrate', '5M'],
    seconds: 6,
    expected: 'application-limited',
    adviceTopic: 'application',
    sentenceMatch: /paced at 5 Mbit\/s per stream by --bitrate/,
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
export async function withCpuQuota<T>(percent: number, fn: (join: (pid: number) => Promise<void>) => Promise<T>): Promise<T> {
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

/** Build the scenario's path, run Longhaul A→B through it, tear the path down; resolves with the result. */
export async function runScenario(s: DiagnosisScenario): Promise<LonghaulResult> {
  return withAllowedCongestionControl(s.senderCc, async () => {
    const link = await createWanLink(s.link);
    try {
      await link.execInA('sysctl', ['-qw', `net.ipv4.tcp_congestion_control=${s.senderCc}`]);
      await link.execInB('sysctl', ['-qw', `net.ipv4.tcp_congestion_control=${s.senderCc}`]);
      if (s.senderWmem) await link.execInA('sysctl', ['-qw', `net.ipv4.tcp_wmem=${s.senderWmem}`]);
      if (s.receiverRmem) await link.execInB('sysctl', ['-qw', `net.ipv4.tcp_rmem=${s.receiverRmem}`]);
      if (!s.receiverCpuPercent) return await longhaulAtoB(link, { seconds: s.seconds, flags: s.flags });
      return await withCpuQuota(s.receiverCpuPercent, (join) => longhaulAtoB(link, { seconds: s.seconds, flags: s.flags, onListener: join }));
    } finally {
      await link.destroy();
    }
  });
}
