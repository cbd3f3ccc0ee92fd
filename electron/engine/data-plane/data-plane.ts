/**
 * One side's data plane: the worker processes that carry this side's data
 * streams, the stream-to-worker assignment, and the merge of their samples
 * into one per-side sample per interval.
 */
import { fork } from 'node:child_process';
import net from 'node:net';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { CpuUse, TcpSample } from '../../contract/result.js';
import type { UdpCounts } from '../../contract/udp.js';
import { cpuUse, ProcessCpuClock } from './cpu-use.js';
import { LonghaulError } from '../../util/errors.js';
import { nativeSockets } from '../../native/load-native.js';
import { dataPath } from '../../native/data-path.js';
import { rawHandle } from '../../native/node-handle.js';
import { TickMerger } from './tick-merger.js';
import { closeQuietly, workerCount, type WorkerSlot } from './worker-slot.js';
import { awaitDrained } from './plane-drain.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { DataPlaneOptions } from './data-plane-options.js';
import type { RunParams } from '../../protocol/run-params.js';
import type { FromWorker, ToWorker, WorkerRole } from './worker-messages.js';
import { itemAt, present } from '../../contract/present.js';

const WORKER_SCRIPT = fileURLToPath(new URL('./data-worker/index.js', import.meta.url));

/** One per-side sample: cumulative [id, bytes, completions] for every local stream. */
export interface SideSample {
  index: number;
  t: number;
  final: boolean;
  streams: [number, number, number][];
  /** Latest TCP_INFO reading per local stream, when the native addon is there. */
  tcp?: [number, TcpSample][];
  /** UDP runs: each local receiving stream's cumulative counts (contract/udp.ts). */
  udp?: [number, UdpCounts][];
  /** The first sample of a side that received before its clock started: when (s, < 0) its first byte was read. */
  from?: number;
}

export interface DataPlaneEvents {
  sample: [SideSample];
  /** All local streams ended (naturally, by stop, or by error). */
  done: [StreamEnd[]];
  /** A worker died or a stream failed before the start. */
  error: [LonghaulError];
  /** A sending worker answered a drain (see drained()). */
  drained: [boolean];
  /** A stream stopped at its cap (DataPlaneOptions.caps): [stream id, bytes moved, cap]. */
  limit: [number, number, number];
  /** UDP: a receiving worker bound its socket for these streams, on this port (udp/udp-setup.ts). */
  udpPort: [number[], number];
  /** Every local sending stream ended (before 'done' when this side also receives): UDP tells its receivers the last numbers. */
  sendersDone: [StreamEnd[]];
}

export class DataPlane extends EventEmitter<DataPlaneEvents> {
  private readonly slots: WorkerSlot[] = [];
  private readonly slotOf = new Map<number, WorkerSlot>();
  /** Per stream: the bytes it was planned to carry and its cap (null: none). */
  private readonly budgets = new Map<number, { bytes: number | null; capBytes: number | null }>();
  private readonly cumulative = new Map<number, [number, number, number]>();
  private merger: TickMerger = new TickMerger([]);
  private sendersEnded = false;
  private readonly pendingReady = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private emittedIndex = 0;
  private finished = false;
  private finalEmitted = false;
  private destroyed = false;
  private readonly keepWorkers: boolean;
  /** This process's CPU from the start; the side's CPU use once every worker has reported. */
  private cpuClock: ProcessCpuClock | null = null;
  private cpuTotal: CpuUse | null = null;

  constructor(opts: DataPlaneOptions) {
    super();
    this.keepWorkers = opts.keepWorkersAfterDone ?? false;
    const { params, plan, side } = opts;
    for (const role of ['send', 'receive'] as const) {
      const mine = plan.filter((s) => (s.sender === side) === (role === 'send'));
      if (mine.length === 0) continue;
      const n = workerCount(role, mine.length, { maxWorkersPerRole: opts.maxWorkersPerRole, samePc: opts.samePc, writeBytes: params.bufferBytes });
      const group: WorkerSlot[] = [];
      for (let w = 0; w < n; w++) group.push(this.spawn(role, params, opts, Math.ceil(mine.length / n)));
      mine.forEach((s, i) => {
        const slot = itemAt(group, i % n, 'worker slot');
        slot.streamIds.push(s.id);
        this.slotOf.set(s.id, slot);
        this.budgets.set(s.id, { bytes: s.bytes, capBytes: opts.caps?.get(s.id) ?? null });
        this.cumulative.set(s.id, [s.id, 0, 0]);
      });
    }
    this.merger = new TickMerger([...this.cumulative.keys()]);
  }

  private spawn(role: WorkerRole, params: RunParams, opts: Pick<DataPlaneOptions, 'listenerWindow' | 'listenerMss' | 'partner'>, streams: number): WorkerSlot {
    const child = fork(WORKER_SCRIPT, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const slot: WorkerSlot = { child, role, streamIds: [], lastIndex: 0, lastT: 0, final: false, done: null, cpu: null, exited: false };
    child.on('message', (m: FromWorker) => this.onWorkerMessage(slot, m));
    child.on('exit', (code, signal) => this.onWorkerExit(slot, code, signal));
    child.on('error', () => undefined); // 'exit' follows and reports
    this.tell(slot, {
      type: 'init',
      role,
      bufferBytes: params.bufferBytes,
      intervalMs: params.intervalSeconds * 1000,
      seconds: params.seconds,
      windowBytes: params.windowBytes,
      streams,
      mssBytes: params.mssBytes ?? null,
      bitrateBitsPerSec: params.bitrateBitsPerSec ?? null,
      congestionControl: params.congestionControl ?? null,
      ...(params.zeroCopy ? { zeroCopy: true } : {}),
      ...(params.protocol === 'udp' ? { protocol: 'udp' as const } : {}),
      partner: opts.partner,
      ...(opts.listenerWindow ? { listenerWindow: opts.listenerWindow } : {}),
      ...(opts.listenerMss ? { listenerMss: opts.listenerMss } : {}),
    });
    this.slots.push(slot);
    return slot;
  }

  private tell(slot: WorkerSlot, msg: ToWorker, handle?: unknown): void {
    if (slot.exited || !slot.child.connected) return;
    slot.child.send(msg, handle as never, { keepOpen: false } as never, () => undefined);
  }

  private budgetOf(id: number): { bytes: number | null; capBytes: number | null } {
    return this.budgets.get(id) ?? { bytes: null, capBytes: null };
  }

  private waitReady(id: number): Promise<void> {
    return new Promise((resolve, reject) => this.pendingReady.set(id, { resolve, reject }));
  }

  /** Controller side: each worker dials the responder for its streams. Resolves when all sent their header. */
  async connectAll(host: string, port: number, headerFor: (id: number) => Buffer): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [id, slot] of this.slotOf) {
      waits.push(this.waitReady(id));
      this.tell(slot, { type: 'connect', id, host, port, headerB64: headerFor(id).toString('base64'), bytes: this.budgets.get(id)?.bytes ?? null });
    }
    await Promise.all(waits);
  }

  /**
   * Controller side, one stream after another in `ids` order: each is connected and has sent its
   * header before the next dials. An iperf3 server numbers streams, and in --bidir picks their
   * direction, by the order it accepts them.
   */
  async connectInOrder(ids: number[], host: string, port: number, headerFor: (id: number) => Buffer): Promise<void> {
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (!slot) throw new LonghaulError('LH_ERR_DATA_STREAM', `no stream ${id} in this run`);
      const ready = this.waitReady(id);
      this.tell(slot, { type: 'connect', id, host, port, headerB64: headerFor(id).toString('base64'), bytes: this.budgets.get(id)?.bytes ?? null });
      await ready;
    }
  }

  /**
   * Responder side, owned data connections: hand a socket the addon accepted to the worker that
   * owns stream `id`, the way this PC's data path says (native/data-path.ts `conn.handover`). This
   * process closes its own copy once the worker has taken it.
   */
  async adoptOwned(id: number, fd: number): Promise<void> {
    const api = nativeSockets().api;
    const slot = this.slotOf.get(id);
    const handover = dataPath().conn.handover;
    if (!api?.owned || !slot || !handover) {
      closeQuietly(fd);
      throw new LonghaulError(
        'LH_ERR_DATA_STREAM',
        !slot ? `no stream ${id} in this run` : 'this PC does not own its data connections (longhaul doctor says why)',
      );
    }
    if (handover === 'node-handle') {
      // Not readable here: a readable net.Socket starts reading at once (64 KiB at a time), and
      // any payload it took would never reach the worker.
      const socket = new net.Socket({ fd, readable: false, writable: false });
      try {
        await this.adopt(id, rawHandle(socket));
      } finally {
        socket.destroy();
      }
      return;
    }
    try {
      const info = api.owned.duplicate(fd, present(slot.child.pid, "the data worker's process id"));
      const ready = this.waitReady(id);
      this.tell(slot, { type: 'adopt-owned', id, ...this.budgetOf(id), socketB64: info.toString('base64') });
      await ready;
    } finally {
      closeQuietly(fd);
    }
  }

  /** Responder side: hand an accepted TCP handle to the worker that owns stream `id`. */
  async adopt(id: number, handle: unknown): Promise<void> {
    const slot = this.slotOf.get(id);
    if (!slot) throw new LonghaulError('LH_ERR_DATA_STREAM', `no stream ${id} in this run`);
    const ready = this.waitReady(id);
    this.tell(slot, { type: 'adopt', id, ...this.budgetOf(id) }, handle);
    await ready;
  }

  /** Tell each worker of `role` what `build` makes of its stream ids (null: nothing), e.g. UDP's setup (udp/udp-setup.ts). */
  tellRole(role: WorkerRole, build: (streamIds: readonly number[]) => ToWorker | ToWorker[] | null): void {
    for (const slot of this.slots) {
      if (slot.role !== role) continue;
      const msgs = build(slot.streamIds);
      for (const m of msgs === null ? [] : Array.isArray(msgs) ? msgs : [msgs]) this.tell(slot, m);
    }
  }

  /** Resolves when every stream in `ids` said `ready` (or `udp-port`); rejects on its `stream-error`. */
  streamsReady(ids: readonly number[]): Promise<void> {
    return Promise.all(ids.map((id) => this.waitReady(id))).then(() => undefined);
  }

  /** Stream `id`'s planned bytes (null: bounded by time). */
  budgetBytes(id: number): number | null {
    return this.budgets.get(id)?.bytes ?? null;
  }

  start(startNs: bigint): void {
    this.cpuClock ??= new ProcessCpuClock({ pc: true });
    for (const slot of this.slots) this.tell(slot, { type: 'start', startNs: startNs.toString() });
  }

  /**
   * Stop: senders end their streams, receivers wait for the peer's FIN. With `receiveTargets`
   * (stream id → bytes the peer says it sent) a receiver that has counted them ends at once,
   * without waiting for a FIN the peer sends only later (an iperf3 client closes its streams
   * after the results exchange). With `role`, only that role's workers are told.
   */
  stop(graceMs: number, receiveTargets?: Map<number, number>, role?: WorkerRole): void {
    for (const slot of this.slots) {
      if (role && slot.role !== role) continue;
      const targets =
        receiveTargets && slot.role === 'receive'
          ? slot.streamIds.flatMap((id): [number, number][] => {
              const target = receiveTargets.get(id);
              return target === undefined ? [] : [[id, target]];
            })
          : undefined;
      this.tell(slot, { type: 'stop', graceMs, ...(targets?.length ? { receiveTargets: targets } : {}) });
    }
  }

  /** The responder's limit: senders end their streams, receivers stop reading and close now (worker-messages.ts 'cut'). */
  cut(): void {
    for (const slot of this.slots) this.tell(slot, { type: 'cut' });
  }

  /**
   * Resolves once every sending worker says the peer acknowledged all its bytes (true), or
   * one could not tell or `timeoutMs` passed (false).
   */
  drained(timeoutMs: number): Promise<boolean> {
    const senders = this.slots.filter((s) => s.role === 'send' && !s.exited);
    return awaitDrained(this, senders.length, timeoutMs, () => senders.forEach((slot) => this.tell(slot, { type: 'drain', timeoutMs })));
  }

  /**
   * This side's CPU over the transfer (this process and its workers, from the start to the last
   * stream's end), once every stream has ended; null before that or when the run never started.
   */
  get cpu(): CpuUse | null {
    return this.cpuTotal;
  }

  private measureCpu(): CpuUse | null {
    if (!this.cpuClock) return null;
    const mine = this.cpuClock.elapsed();
    const workers = this.slots.flatMap((s) => (s.cpu ? [s.cpu] : []));
    // A worker whose streams ran on Node's loop has no threads of its own: the side's threads are the native ones.
    const threads = workers.flatMap((w) => w.threads ?? []);
    return { ...cpuUse([mine, ...workers], mine.wallSeconds, threads.length ? threads : null), pc: mine.pc ?? null };
  }

  /** Kill every worker. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const slot of this.slots) {
      if (!slot.exited) slot.child.kill('SIGKILL');
    }
    for (const p of this.pendingReady.values()) p.reject(new LonghaulError('LH_ERR_STOPPED', 'the run was stopped'));
    this.pendingReady.clear();
  }

  private onWorkerMessage(slot: WorkerSlot, m: FromWorker): void {
    switch (m.type) {
      case 'ready':
        this.pendingReady.get(m.id)?.resolve();
        this.pendingReady.delete(m.id);
        return;
      case 'udp-port':
        this.emit('udpPort', m.ids, m.port);
        if (m.awaitingPeer) return; // a serving sender: ready once its receiver's hello came
        for (const id of m.ids) this.pendingReady.get(id)?.resolve();
        for (const id of m.ids) this.pendingReady.delete(id);
        return;
      case 'stream-error': {
        const err = new LonghaulError(m.code, m.message);
        const p = this.pendingReady.get(m.id);
        if (p) {
          this.pendingReady.delete(m.id);
          p.reject(err);
        } else {
          this.emit('error', err);
        }
        return;
      }
      case 'sample':
        for (const entry of m.streams) this.cumulative.set(entry[0], entry);
        this.merger.add(this.slots.indexOf(slot), m.index, { ...m, tcp: m.tcp ?? [] });
        slot.lastIndex = Math.max(slot.lastIndex, m.index);
        slot.lastT = m.t;
        if (m.final) slot.final = true;
        this.emitReadySamples();
        return;
      case 'drained':
        this.emit('drained', m.acked);
        return;
      case 'limit':
        this.emit('limit', m.id, m.bytes, m.capBytes);
        return;
      case 'done':
        slot.done = m.streams;
        slot.cpu = m.cpu ?? null;
        this.emitReadySamples();
        this.maybeFinish();
        return;
    }
  }

  private onWorkerExit(slot: WorkerSlot, code: number | null, signal: NodeJS.Signals | null): void {
    slot.exited = true;
    if (slot.done || this.destroyed) return;
    // A worker that dies takes its streams' counters with it: report what we last saw, as errors.
    slot.done = slot.streamIds.map((id) => {
      const c = this.cumulative.get(id) ?? [id, 0, 0];
      return {
        id,
        role: slot.role,
        bytes: c[1],
        completions: c[2],
        firstT: null,
        lastT: slot.lastT || null,
        error: { code: 'LH_ERR_WORKER', message: `data worker exited unexpectedly (${signal ?? `code ${code}`})` },
      };
    });
    for (const id of slot.streamIds) {
      const p = this.pendingReady.get(id);
      if (p) {
        this.pendingReady.delete(id);
        p.reject(new LonghaulError('LH_ERR_WORKER', `data worker for stream ${id} exited (${signal ?? `code ${code}`})`));
      }
    }
    this.emitReadySamples();
    this.maybeFinish();
  }

  /** Emit one side sample per index once every still-running worker has reported it (tick-merger.ts). */
  private emitReadySamples(): void {
    const running = this.slots.filter((s) => !s.done && !s.final);
    if (running.length === 0) {
      if (this.finalEmitted) return;
      this.finalEmitted = true;
      const index = Math.max(this.emittedIndex + 1, ...this.slots.map((s) => s.lastIndex));
      this.emittedIndex = index;
      // A worker that died left no final sample: its streams' last counts are in `cumulative`.
      this.emit('sample', { index, ...this.merger.take(Infinity, this.cumulative, Math.max(...this.slots.map((s) => s.lastT))), final: true });
      return;
    }
    const upTo = Math.min(...running.map((s) => s.lastIndex));
    while (this.emittedIndex < upTo) {
      this.emittedIndex++;
      this.emit('sample', { index: this.emittedIndex, ...this.merger.take(this.emittedIndex), final: false });
    }
  }

  private maybeFinish(): void {
    const senders = this.slots.filter((s) => s.role === 'send');
    if (!this.sendersEnded && senders.length && senders.every((s) => s.done)) {
      this.sendersEnded = true;
      this.emit(
        'sendersDone',
        senders.flatMap((s) => s.done ?? []),
      );
    }
    if (this.finished || this.slots.some((s) => !s.done)) return;
    this.finished = true;
    this.cpuTotal = this.measureCpu();
    const ends = this.slots.flatMap((s) => s.done ?? []).sort((a, b) => a.id - b.id);
    this.emit('done', ends);
    // Workers have reported everything; let them go.
    if (!this.keepWorkers) for (const slot of this.slots) if (!slot.exited) slot.child.disconnect();
  }
}
