/**
 * What moving a run's bytes cost in CPU on one side: the process tree serving
 * the role (the engine process and its data workers, each measuring its own
 * process.cpuUsage() over the transfer) and each native byte-loop thread
 * (native/src/stream_pump.cc reads the thread's own CPU clock). On loopback
 * and fast LANs the limit is often a core, not the path; without these
 * figures a verdict can only blame the path.
 */
import os from 'node:os';
import type { CpuUse, DataThreadCpu, LonghaulResult, PcCpu, Side, UnavailableField } from '../../contract/result.js';
import { pcCpuBetween, readPcCpuTimes, type PcCpuTimes } from './pc-cpu.js';
import { partnerLabel } from '../../contract/partner-label.js';

/** One native loop thread's CPU over the streams it served (the share of one core is the engine's to compute). */
type ThreadSeconds = Omit<DataThreadCpu, 'shareOfOneCore'>;

/** One data worker's CPU over the transfer, as its `done` message reports it. */
export interface WorkerCpu {
  userSeconds: number;
  systemSeconds: number;
  /** Its native loop threads; null where Node's loop moved its bytes or the OS does not say. */
  threads: ThreadSeconds[] | null;
}

/** A stream's loop thread as the addon reported it: which thread, and its CPU clock when it took the stream on and at the stream's end (ns). */
export interface ThreadCpuReading {
  thread: number;
  startNs: number;
  endNs: number;
  /** Its run-queue wait at the same two moments, ns; -1 (or absent: an older addon) = unknown. */
  waitStartNs?: number;
  waitEndNs?: number;
}

/**
 * The CPU this process has used, and the wall time, since the clock was made (both from the same moment);
 * with `pc`, the whole PC's busy share over the same span too (one reader per side is enough).
 */
export class ProcessCpuClock {
  private readonly cpu0 = process.cpuUsage();
  private readonly wall0 = process.hrtime.bigint();
  private readonly pc0: PcCpuTimes | null | undefined;

  constructor(opts: { pc?: boolean } = {}) {
    this.pc0 = opts.pc ? readPcCpuTimes() : undefined;
  }

  /** User and system CPU seconds and wall seconds since the clock was made; `pc` when asked for (null: the OS did not say). */
  elapsed(): { userSeconds: number; systemSeconds: number; wallSeconds: number; pc?: PcCpu | null } {
    const d = process.cpuUsage(this.cpu0);
    const pc = this.pc0 === undefined ? {} : { pc: pcCpuBetween(this.pc0, readPcCpuTimes()) };
    return { userSeconds: d.user / 1e6, systemSeconds: d.system / 1e6, wallSeconds: Number(process.hrtime.bigint() - this.wall0) / 1e9, ...pc };
  }
}

/**
 * The threads behind a worker's streams: streams that shared a thread (all senders of a worker
 * share one) are one entry, costed from its earliest take-on to its latest end. Null when no
 * stream ran on a native thread, or one did and the OS did not give its CPU time.
 */
export function threadsOf(kind: DataThreadCpu['kind'], streams: { id: number; reading: ThreadCpuReading | null; native: boolean }[]): ThreadSeconds[] | null {
  const byThread = new Map<number, { streams: number[]; startNs: number; endNs: number; waitStartNs: number; waitEndNs: number }>();
  for (const { id, reading, native } of streams) {
    if (!native) continue;
    if (!reading || reading.thread === 0) continue; // a native stream whose loop never started: nothing ran
    if (reading.startNs < 0 || reading.endNs < 0) return null;
    const [ws, we] = [reading.waitStartNs ?? -1, reading.waitEndNs ?? -1];
    const t = byThread.get(reading.thread);
    if (!t) byThread.set(reading.thread, { streams: [id], startNs: reading.startNs, endNs: reading.endNs, waitStartNs: ws, waitEndNs: we });
    else {
      t.streams.push(id);
      t.startNs = Math.min(t.startNs, reading.startNs);
      t.endNs = Math.max(t.endNs, reading.endNs);
      // One unknown reading makes the thread's wait unknown.
      t.waitStartNs = ws < 0 || t.waitStartNs < 0 ? -1 : Math.min(t.waitStartNs, ws);
      t.waitEndNs = we < 0 || t.waitEndNs < 0 ? -1 : Math.max(t.waitEndNs, we);
    }
  }
  if (byThread.size === 0) return null;
  return [...byThread.values()].map((t) => ({
    kind,
    streams: t.streams.sort((a, b) => a - b),
    cpuSeconds: Math.max(0, t.endNs - t.startNs) / 1e9,
    waitSeconds: t.waitStartNs < 0 || t.waitEndNs < 0 ? null : Math.max(0, t.waitEndNs - t.waitStartNs) / 1e9,
  }));
}

/** One side's CPU use from its processes' CPU seconds, the transfer's wall seconds and its threads. */
export function cpuUse(
  parts: { userSeconds: number; systemSeconds: number }[],
  wallSeconds: number,
  threads: ThreadSeconds[] | null,
  cores = os.availableParallelism(),
): CpuUse {
  const userSeconds = parts.reduce((a, p) => a + p.userSeconds, 0);
  const systemSeconds = parts.reduce((a, p) => a + p.systemSeconds, 0);
  const shareOfOneCore = wallSeconds > 0 ? (userSeconds + systemSeconds) / wallSeconds : 0;
  return {
    userSeconds,
    systemSeconds,
    wallSeconds,
    cores,
    shareOfOneCore,
    shareOfPc: shareOfOneCore / cores,
    threads: threads ? threads.map((t) => ({ ...t, shareOfOneCore: wallSeconds > 0 ? t.cpuSeconds / wallSeconds : 0 })) : null,
  };
}

/**
 * Why a side's CPU figures, or its data threads', are missing from `result.cpu`, in words for
 * `result.unavailable`: the peer sent none, Node's loop moved the bytes (no thread of its own),
 * or the OS did not give a native thread's CPU time.
 */
export function cpuUnavailable(result: LonghaulResult): UnavailableField[] {
  const cpu = result.cpu;
  if (!cpu) return [];
  const out: UnavailableField[] = [];
  for (const side of ['controller', 'responder'] as Side[]) {
    const c = cpu[side];
    if (!c) {
      const who = side === result.writtenBy ? `this ${side}` : partnerLabel(side, result[side]);
      out.push({ side, field: 'cpu', reason: `${who} sent no CPU figures (an older Longhaul, or an iperf3 end that measured none)` });
      continue;
    }
    if (c.threads !== null || c.coresKnown === false) continue;
    const ios = result.streams.flatMap((s) => [s.send, s.receive]).flatMap((v) => (v && v.side === side && v.io ? [v.io] : []));
    const reason = ios.includes('native')
      ? "this OS did not give the native data threads' CPU time"
      : "Node's own loop moved this end's bytes: there is no data thread of its own to measure";
    out.push({ side, field: 'cpu.threads', reason });
  }
  return out;
}
