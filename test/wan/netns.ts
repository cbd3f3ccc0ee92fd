/**
 * Network namespace names for the WAN harness, and the sweep of namespaces a
 * crashed run left behind.
 *
 * Every namespace is named `lhwan-<pid>-<tag>-<role>`: the pid of the Node
 * process that made it, a random tag (several links per process), and the role
 * (a, r, b; p for the preflight probe). A namespace whose pid is still alive
 * belongs to a run in progress, possibly another engineer's, and is never
 * touched; one whose pid is gone is stale and removed.
 */
import { randomBytes } from 'node:crypto';
import { readCmdSync, runCmdSync } from './run-cmd.js';

const NETNS_PREFIX = 'lhwan-';
const NAME_RE = /^lhwan-(\d+)-([0-9a-f]+)-([arbp])$/;

/** The namespaces of one harness instance. */
export interface NetnsNames {
  a: string;
  r: string;
  b: string;
}

/** A fresh random tag, unique enough for parallel links in one process. */
function newTag(): string {
  return randomBytes(4).toString('hex');
}

/** Names for a new link owned by this process. */
export function linkNetnsNames(tag = newTag()): NetnsNames {
  const base = `${NETNS_PREFIX}${process.pid}-${tag}`;
  return { a: `${base}-a`, r: `${base}-r`, b: `${base}-b` };
}

/** Name for a preflight probe namespace owned by this process. */
export function probeNetnsName(tag = newTag()): string {
  return `${NETNS_PREFIX}${process.pid}-${tag}-p`;
}

/** Namespace names as `ip netns list` prints them (first word of each line). */
export function listNetns(): string[] {
  return readCmdSync('ip', ['netns', 'list'])
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((n) => n.length > 0);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but not ours to signal; only ESRCH means gone.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Kill every process inside namespace `ns` (SIGKILL, by pid) and delete it.
 * Processes must go first: a namespace outlives its name while a process is in it.
 * Returns true when the namespace is gone afterwards.
 */
export function killAndDeleteNetnsSync(ns: string): boolean {
  for (let round = 0; round < 3; round++) {
    const pids = readCmdSync('ip', ['netns', 'pids', ns])
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((p) => Number.isInteger(p) && p > 0);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  runCmdSync('ip', ['netns', 'del', ns]);
  return !listNetns().includes(ns);
}

/**
 * Remove harness namespaces whose owning process is gone. Returns the names
 * removed. Namespaces of live processes (this one included) are left alone.
 */
export function sweepStaleNetns(): string[] {
  const removed: string[] = [];
  for (const ns of listNetns()) {
    const m = NAME_RE.exec(ns);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || pidAlive(pid)) continue;
    if (killAndDeleteNetnsSync(ns)) removed.push(ns);
  }
  return removed;
}
