/**
 * Can this machine run the kernel WAN harness? Answers with the reason to skip
 * (not root, a tool missing, a kernel feature missing) or null when it can.
 * The kernel features are probed for real in a throwaway namespace: veth,
 * tbf, the iptables statistic match and the NFQUEUE target.
 *
 * Set LONGHAUL_WAN_REQUIRED=1 to make tests fail instead of skip (for CI
 * machines that are meant to run them).
 */
import { spawnSync } from 'node:child_process';
import { ensureDelayHelper } from './helper-build.js';
import { killAndDeleteNetnsSync, probeNetnsName, sweepStaleNetns } from './netns.js';
import { runCmd } from './run-cmd.js';

/** Tools every harness link needs; tests name their own extra tools (iperf3, ping). */
const BASE_TOOLS = ['ip', 'tc', 'iptables', 'ethtool', 'sysctl', 'gcc'] as const;

let baseResult: Promise<string | null> | null = null;

function onPath(tool: string): boolean {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}

async function probeKernel(): Promise<string | null> {
  const ns = probeNetnsName();
  const steps: [string, string, string[]][] = [
    ['network namespaces', 'ip', ['netns', 'add', ns]],
    ['veth pairs', 'ip', ['-n', ns, 'link', 'add', 'p0', 'type', 'veth', 'peer', 'name', 'p1']],
    ['the tbf qdisc', 'ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'p0', 'root', 'tbf', 'rate', '1mbit', 'burst', '3028', 'limit', '30000']],
    [
      'the iptables statistic match',
      'ip',
      ['netns', 'exec', ns, 'iptables', '-w', '-A', 'OUTPUT', '-m', 'statistic', '--mode', 'random', '--probability', '0.5', '-j', 'ACCEPT'],
    ],
    ['the iptables NFQUEUE target', 'ip', ['netns', 'exec', ns, 'iptables', '-w', '-A', 'OUTPUT', '-o', 'p0', '-j', 'NFQUEUE', '--queue-num', '0']],
  ];
  try {
    for (const [feature, cmd, args] of steps) {
      try {
        await runCmd(cmd, args);
      } catch (err) {
        return `the kernel or its tools lack ${feature}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    return null;
  } finally {
    killAndDeleteNetnsSync(ns);
  }
}

async function checkBase(): Promise<string | null> {
  if (process.platform !== 'linux') return 'the kernel WAN harness needs Linux (network namespaces)';
  if (process.getuid?.() !== 0) return 'the kernel WAN harness needs root (network namespaces, tc, iptables)';
  const missing = BASE_TOOLS.filter((t) => !onPath(t));
  if (missing.length) return `missing tools: ${missing.join(', ')} (Debian: iproute2 iptables ethtool procps gcc)`;
  sweepStaleNetns();
  const kernel = await probeKernel();
  if (kernel) return kernel;
  try {
    await ensureDelayHelper();
  } catch (err) {
    return `cannot build the NFQUEUE delay helper (needs gcc and libnetfilter-queue-dev): ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}

/**
 * Why the harness cannot run here, or null when it can. `extraTools` are
 * checked on PATH as well (e.g. ['iperf3']). Cached per process.
 */
export async function wanSkipReason(extraTools: readonly string[] = []): Promise<string | null> {
  baseResult ??= checkBase();
  const base = await baseResult;
  const missing = extraTools.filter((t) => !onPath(t));
  const reason = base ?? (missing.length ? `missing tools: ${missing.join(', ')}` : null);
  if (reason && process.env.LONGHAUL_WAN_REQUIRED === '1') {
    throw new Error(`LONGHAUL_WAN_REQUIRED=1 but the WAN harness cannot run: ${reason}`);
  }
  return reason;
}
