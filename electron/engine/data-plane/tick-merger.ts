/**
 * One side's sample per tick from its data workers' samples, each worker's
 * counts taken at that same tick: workers out of step on a loaded machine
 * must not mix ticks (docs/measurements.md#tick-merge). A side sample's `t`
 * is the latest worker clock at that tick (all
 * workers count from the same start instant).
 */
import type { TcpSample } from '../../contract/result.js';
import type { UdpCounts } from '../../contract/udp.js';

/** One worker's sample of one tick: its clock reading and its streams' cumulative [id, bytes, completions] then. */
interface WorkerTick {
  t: number;
  streams: [number, number, number][];
  tcp: [number, TcpSample][];
  /** UDP receivers' cumulative counts (udp-worker.ts); absent for TCP. */
  udp?: [number, UdpCounts][];
  /** Its first tick: its first byte was read this long (s, < 0) before the start (worker.ts leadIn). */
  from?: number;
}

/** A side sample's body: the clock, every stream's cumulative counts, the latest reading per stream. */
interface MergedTick {
  t: number;
  streams: [number, number, number][];
  tcp?: [number, TcpSample][];
  udp?: [number, UdpCounts][];
  /** The first side sample only: the side's first byte, seconds (< 0) before its start (the first interval began there). */
  from?: number;
}

export class TickMerger {
  private readonly pending = new Map<number, Map<number, WorkerTick>>();
  private readonly counts = new Map<number, [number, number, number]>();
  private readonly tcp = new Map<number, TcpSample>();
  private readonly udp = new Map<number, UdpCounts>();
  private t = 0;
  /** The earliest worker's first byte before the start (s, < 0), or 0; told with the first side sample. */
  private from = 0;
  private taken = false;

  /** @param streamIds every local stream, in the order side samples list them */
  constructor(private readonly streamIds: readonly number[]) {}

  /** Worker `worker` sampled tick `index`. */
  add(worker: number, index: number, tick: WorkerTick): void {
    let m = this.pending.get(worker);
    if (!m) this.pending.set(worker, (m = new Map()));
    m.set(index, tick);
    if (tick.from !== undefined && tick.from < this.from) this.from = tick.from;
  }

  /**
   * Every worker's samples up to tick `index` folded in (each worker's last one at or before it);
   * with `index` Infinity, all of them, then `last` for streams whose worker died without a final sample.
   */
  take(index: number, last?: ReadonlyMap<number, [number, number, number]>, lastT = 0): MergedTick {
    let t = this.t;
    for (const ticks of this.pending.values()) {
      for (const [i, w] of ticks) {
        if (i > index) continue;
        for (const entry of w.streams) this.counts.set(entry[0], entry);
        for (const [id, reading] of w.tcp) this.tcp.set(id, reading);
        for (const [id, counts] of w.udp ?? []) this.udp.set(id, counts);
        t = Math.max(t, w.t);
        ticks.delete(i);
      }
    }
    for (const [id, c] of last ?? []) {
      const e = this.counts.get(id);
      if (!e || e[1] < c[1]) this.counts.set(id, c);
    }
    this.t = t = Math.max(t, lastT);
    const streams = this.streamIds.map((id) => [...(this.counts.get(id) ?? [id, 0, 0])] as [number, number, number]);
    const lead = !this.taken && this.from < 0 ? { from: this.from } : {};
    this.taken = true;
    return {
      t,
      streams,
      ...(this.tcp.size ? { tcp: [...this.tcp.entries()] } : {}),
      ...(this.udp.size ? { udp: [...this.udp.entries()] } : {}),
      ...lead,
    };
  }
}
