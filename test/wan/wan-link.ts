/**
 * The kernel WAN harness: a reference link of real kernel TCP for tests and
 * benchmarks (test/wan/README.md).
 *
 *   netns A                 netns R (router)                  netns B
 *   a0 192.0.2.2 ──veth── ra 192.0.2.1 | rb 198.51.100.1 ──veth── b0 198.51.100.2
 *                          FORWARD: statistic DROP (loss) → NFQUEUE 0 (nfq-delay: one-way delay)
 *                          egress rb: tbf (rate A→B)    egress ra: tbf (rate B→A)
 *
 * Offloads (TSO, GSO, GRO) are off on every veth so tbf and the delay line
 * see real MTU-sized packets. Addresses are documentation ranges (RFC 5737)
 * and live only inside these namespaces: nothing reaches any other network.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { startDelayHelper, type DelayHelper, type DelayHelperStats } from './delay-helper.js';
import { lossMatchArgs, resolveLinkConfig, tbfArgs, type ResolvedLinkConfig, type WanLinkOptions } from './link-config.js';
import { killAndDeleteNetnsSync, linkNetnsNames, listNetns, sweepStaleNetns, type NetnsNames } from './netns.js';
import { runCmd, type CmdOutput } from './run-cmd.js';
import { trackForTeardown, untrackForTeardown } from './teardown.js';

export type { WanLinkOptions } from './link-config.js';

const A_ADDR = '192.0.2.2';
const RA_ADDR = '192.0.2.1';
const B_ADDR = '198.51.100.2';
const RB_ADDR = '198.51.100.1';
const QUEUE_NUM = 0;
const KILL_GRACE_MS = 2_000;

/** Drop counters read from the router, packets. */
interface WanLinkCounters {
  /** Dropped by the loss rule (both directions). */
  lossDrops: number;
  /** Dropped by the tbf queue toward B (A→B) and toward A (B→A). */
  queueDropsToB: number;
  queueDropsToA: number;
  /** Dropped by the kernel on the way to the delay helper (queue or netlink buffer full); 0 without delay. */
  delayQueueDrops: number;
}

type State = 'setting-up' | 'up' | 'destroying' | 'destroyed';

/** One A – R – B link. Create it with createWanLink(). */
export class WanLink {
  readonly aAddr = A_ADDR;
  readonly bAddr = B_ADDR;
  readonly netns: NetnsNames;
  /** The link's settings; setRate() changes its rates. */
  readonly config: ResolvedLinkConfig;
  /** Counters the delay helper printed when it stopped (after destroy(); null when there was no helper). */
  delayStats: DelayHelperStats | null = null;

  private state: State = 'setting-up';
  private readonly createdNetns: string[] = [];
  private readonly children = new Set<ChildProcess>();
  private helper: DelayHelper | null = null;
  private destroying: Promise<void> | null = null;

  constructor(config: ResolvedLinkConfig, netns: NetnsNames) {
    this.config = config;
    this.netns = netns;
  }

  /** Run a command in A (or B) and return its output; rejects with LH_ERR_IO on failure or timeout. */
  execInA(cmd: string, args: readonly string[], timeoutMs?: number): Promise<CmdOutput> {
    return this.execIn(this.netns.a, cmd, args, timeoutMs);
  }

  execInB(cmd: string, args: readonly string[], timeoutMs?: number): Promise<CmdOutput> {
    return this.execIn(this.netns.b, cmd, args, timeoutMs);
  }

  /** Start a long-running process in A (or B). It is killed by destroy() if still running. */
  spawnInA(cmd: string, args: readonly string[], opts: SpawnOptions = {}): ChildProcess {
    return this.spawnIn(this.netns.a, cmd, args, opts);
  }

  spawnInB(cmd: string, args: readonly string[], opts: SpawnOptions = {}): ChildProcess {
    return this.spawnIn(this.netns.b, cmd, args, opts);
  }

  /** Pid of the delay helper, null when the link has no delay (or after destroy). */
  get helperPid(): number | null {
    const c = this.helper?.child;
    return c && c.exitCode === null && c.signalCode === null ? (c.pid ?? null) : null;
  }

  /**
   * Change the bottleneck's rate while traffic flows (`tc qdisc change`: the queue and its packets
   * stay; the queue keeps the length it was made with). B→A defaults to the same rate.
   */
  async setRate(rateBitsPerSec: number, reverseRateBitsPerSec = rateBitsPerSec): Promise<void> {
    const next = resolveLinkConfig({ ...this.config, rateBitsPerSec, reverseRateBitsPerSec });
    const { queueBytes } = this.config;
    await this.execIn(this.netns.r, 'tc', ['qdisc', 'change', 'dev', 'rb', 'root', 'tbf', ...tbfArgs(next.rateBitsPerSec, queueBytes)]);
    await this.execIn(this.netns.r, 'tc', ['qdisc', 'change', 'dev', 'ra', 'root', 'tbf', ...tbfArgs(next.reverseRateBitsPerSec, queueBytes)]);
    this.config.rateBitsPerSec = next.rateBitsPerSec;
    this.config.reverseRateBitsPerSec = next.reverseRateBitsPerSec;
  }

  /** Drop counters so far (the router's iptables and tbf statistics). */
  async counters(): Promise<WanLinkCounters> {
    const ipt = await this.execIn(this.netns.r, 'iptables', ['-w', '-L', 'FORWARD', '-v', '-x', '-n']);
    const lossLines = ipt.stdout.split('\n').filter((l) => /\bDROP\b/.test(l) && l.includes('statistic'));
    const tcDrops = async (dev: string): Promise<number> => {
      const out = await this.execIn(this.netns.r, 'tc', ['-s', 'qdisc', 'show', 'dev', dev]);
      return Number(/dropped (\d+)/.exec(out.stdout)?.[1] ?? 0);
    };
    // Columns: queue, portid, waiting, copy mode, copy range, queue_dropped, user_dropped, last id, 1.
    const nfq = this.helper ? (await this.execIn(this.netns.r, 'cat', ['/proc/net/netfilter/nfnetlink_queue'])).stdout : '';
    const nfqCols = nfq.trim().split(/\s+/).map(Number);
    return {
      lossDrops: lossLines.reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0]), 0),
      queueDropsToB: await tcDrops('rb'),
      queueDropsToA: await tcDrops('ra'),
      delayQueueDrops: nfqCols.length >= 7 ? (nfqCols[5] ?? 0) + (nfqCols[6] ?? 0) : 0,
    };
  }

  /**
   * Tear everything down: the processes it started, the delay helper, then the
   * three namespaces (which takes the veths, routes, qdiscs and iptables rules
   * with them). Idempotent; safe to call while setup is still failing.
   */
  destroy(): Promise<void> {
    this.destroying ??= this.doDestroy();
    return this.destroying;
  }

  /** Synchronous teardown for process exit (teardown.ts): SIGKILL and delete, no waiting. */
  destroySync(): void {
    if (this.state === 'destroyed') return;
    this.state = 'destroyed';
    for (const c of [...this.children, ...(this.helper ? [this.helper.child] : [])]) c.kill('SIGKILL');
    for (const ns of this.createdNetns) killAndDeleteNetnsSync(ns);
    untrackForTeardown(this);
  }

  /** Build the link; called once by createWanLink(). */
  async setUp(): Promise<void> {
    trackForTeardown(this);
    const { a, r, b } = this.netns;
    for (const ns of [a, r, b]) {
      await runCmd('ip', ['netns', 'add', ns]);
      this.createdNetns.push(ns);
      await runCmd('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    }
    // Create each veth pair directly inside its namespaces: the short fixed names
    // never exist in the root namespace, so parallel links cannot collide.
    await runCmd('ip', ['link', 'add', 'a0', 'netns', a, 'type', 'veth', 'peer', 'name', 'ra', 'netns', r]);
    await runCmd('ip', ['link', 'add', 'b0', 'netns', b, 'type', 'veth', 'peer', 'name', 'rb', 'netns', r]);
    const ends: [string, string, string][] = [
      [a, 'a0', `${A_ADDR}/24`],
      [r, 'ra', `${RA_ADDR}/24`],
      [r, 'rb', `${RB_ADDR}/24`],
      [b, 'b0', `${B_ADDR}/24`],
    ];
    for (const [ns, dev, cidr] of ends) {
      await runCmd('ip', ['-n', ns, 'addr', 'add', cidr, 'dev', dev]);
      await runCmd('ip', ['-n', ns, 'link', 'set', dev, 'up']);
      await this.execIn(ns, 'ethtool', ['-K', dev, 'tso', 'off', 'gso', 'off', 'gro', 'off']);
    }
    // Permanent neighbour entries: ARP requests would otherwise queue behind data in
    // tbf, neighbour probes time out on a loaded link, and the kernel drops packets
    // uncounted while the entry is FAILED (seen as spurious RTOs). A real WAN has no ARP.
    await this.pinNeighbour(a, 'a0', RA_ADDR, r, 'ra');
    await this.pinNeighbour(r, 'ra', A_ADDR, a, 'a0');
    await this.pinNeighbour(b, 'b0', RB_ADDR, r, 'rb');
    await this.pinNeighbour(r, 'rb', B_ADDR, b, 'b0');
    await runCmd('ip', ['-n', a, 'route', 'add', 'default', 'via', RA_ADDR]);
    await runCmd('ip', ['-n', b, 'route', 'add', 'default', 'via', RB_ADDR]);
    await this.execIn(r, 'sysctl', ['-qw', 'net.ipv4.ip_forward=1']);

    const cfg = this.config;
    await this.execIn(r, 'tc', ['qdisc', 'add', 'dev', 'rb', 'root', 'tbf', ...tbfArgs(cfg.rateBitsPerSec, cfg.queueBytes)]);
    await this.execIn(r, 'tc', ['qdisc', 'add', 'dev', 'ra', 'root', 'tbf', ...tbfArgs(cfg.reverseRateBitsPerSec, cfg.queueBytes)]);
    // Loss first, so a lost packet does not occupy the delay line.
    if (cfg.lossPercent > 0) {
      // One rule per direction: a periodic (nth) rule counts the packets it sees, and each
      // direction must lose its own every N-th.
      for (const from of ['ra', 'rb']) {
        await this.execIn(r, 'iptables', ['-w', '-A', 'FORWARD', '-i', from, ...lossMatchArgs(cfg.lossPercent, cfg.lossPattern), '-j', 'DROP']);
      }
    }
    if (cfg.oneWayDelayMs > 0) {
      this.helper = await startDelayHelper(r, QUEUE_NUM, cfg.oneWayDelayMs);
      // No --queue-bypass: if the helper dies, traffic stops instead of silently losing its delay.
      await this.execIn(r, 'iptables', ['-w', '-A', 'FORWARD', '-j', 'NFQUEUE', '--queue-num', String(QUEUE_NUM)]);
    }
    this.state = 'up';
  }

  /** In `ns`, map `addr` on `dev` permanently to the MAC of `peerDev` in `peerNs`. */
  private async pinNeighbour(ns: string, dev: string, addr: string, peerNs: string, peerDev: string): Promise<void> {
    const { stdout } = await runCmd('ip', ['-n', peerNs, '-j', 'link', 'show', 'dev', peerDev]);
    const mac = (JSON.parse(stdout) as { address?: string }[])[0]?.address;
    if (!mac) throw new Error(`WAN link: no MAC address for ${peerDev} in ${peerNs}`);
    await runCmd('ip', ['-n', ns, 'neigh', 'replace', addr, 'lladdr', mac, 'dev', dev, 'nud', 'permanent']);
  }

  private execIn(ns: string, cmd: string, args: readonly string[], timeoutMs?: number): Promise<CmdOutput> {
    return runCmd('ip', ['netns', 'exec', ns, cmd, ...args], timeoutMs);
  }

  private spawnIn(ns: string, cmd: string, args: readonly string[], opts: SpawnOptions): ChildProcess {
    if (this.state !== 'up') throw new Error(`WAN link is ${this.state}, cannot start ${cmd}`);
    // `ip netns exec` execs the command, so the child's pid is the command's own.
    const child = spawn('ip', ['netns', 'exec', ns, cmd, ...args], opts);
    this.children.add(child);
    child.once('close', () => this.children.delete(child));
    return child;
  }

  private async doDestroy(): Promise<void> {
    if (this.state === 'destroyed') return;
    this.state = 'destroying';
    await Promise.all([...this.children].map((c) => stopChild(c)));
    if (this.helper) this.delayStats = await this.helper.stop(KILL_GRACE_MS);
    const left = this.createdNetns.filter((ns) => !killAndDeleteNetnsSync(ns));
    this.state = 'destroyed';
    untrackForTeardown(this);
    if (left.length > 0) throw new Error(`WAN link: could not delete namespaces ${left.join(', ')}`);
  }
}

/** SIGTERM, then SIGKILL after a grace period; resolves when the child has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Build an A – R – B link with the given rate, one-way delay and loss. Needs
 * root. Sweeps stale harness namespaces first. If any step fails, everything
 * made so far is torn down before the error (LH_ERR_IO naming the failed
 * command, or LH_ERR_BAD_ARGUMENT for bad options) is thrown.
 */
export async function createWanLink(opts: WanLinkOptions): Promise<WanLink> {
  const config = resolveLinkConfig(opts);
  sweepStaleNetns();
  const link = new WanLink(config, linkNetnsNames());
  try {
    await link.setUp();
  } catch (err) {
    await link.destroy().catch(() => undefined);
    throw err;
  }
  return link;
}

/** Harness namespaces that exist right now (for tests that check teardown). */
export function harnessNetnsOf(link: WanLink): string[] {
  const mine = new Set(Object.values(link.netns));
  return listNetns().filter((ns) => mine.has(ns));
}
