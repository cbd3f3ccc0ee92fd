/**
 * Drives a DataWorker in this process: its messages collected, its clock on
 * node:test's mock timers (Date is the clock), a fake addon whose byte loops
 * the test ends by hand, and a loopback peer that holds the other ends.
 */
import net from 'node:net';
import { mock } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import type { NativeApi, NativePump, PumpEndReason, PumpOptions } from '../../../electron/native/native-api.js';
import { DataWorker } from '../../../electron/engine/data-plane/data-worker/worker.js';
import { systemClock, type Clock } from '../../../electron/engine/data-plane/data-worker/stream.js';
import type { FromWorker, WorkerInit, WorkerRole } from '../../../electron/engine/data-plane/worker-messages.js';

/** Mock timers (setTimeout, setInterval, Date); setImmediate and I/O stay real. */
export function mockTime(): void {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 });
}

/** The worker's clock: Date (mocked) in ns; timers are the mocked globals. */
export const mockClock: Clock = { ...systemClock, nowNs: () => BigInt(Date.now()) * 1_000_000n };

/** A byte loop that moves nothing by itself: the test sets its counters and ends it. */
class FakePump implements NativePump {
  bytes = 0;
  completions = 0;
  firstNs = 0n;
  lastNs = 0n;
  ended = false;
  stops = 0;
  constructor(
    readonly fd: number,
    readonly opts: PumpOptions,
    private readonly onDone: (err: NodeJS.ErrnoException | null, reason: PumpEndReason) => void,
  ) {}
  snapshot(): [number, number, bigint, bigint, boolean] {
    return [this.bytes, this.completions, this.firstNs, this.lastNs, !this.ended];
  }
  stop(): void {
    this.stops++;
    // The real loop ends within 50 ms, on its own thread: never inside stop().
    if (!this.ended) queueMicrotask(() => this.end(null, 'stopped'));
  }
  end(err: NodeJS.ErrnoException | null, reason: PumpEndReason): void {
    if (this.ended) return;
    this.ended = true;
    this.onDone(err, reason);
  }
}

interface FakeNative {
  api: NativeApi;
  pumps: FakePump[];
  /** Every setNotSentLowat call: [fd, bytes]. */
  lowat: [number, number][];
  /** What tcpInfo says each descriptor's peer acknowledged, bytes. */
  acked: Map<number, number>;
  /** Calls in order: 'lowat' and 'pump'. */
  log: string[];
}

/** An addon whose startPump gives FakePumps, or does what `startPump` says instead. */
export function fakeNative(startPump?: (fd: number, opts: PumpOptions) => NativePump | null): FakeNative {
  const f: FakeNative = { api: null as unknown as NativeApi, pumps: [], lowat: [], acked: new Map(), log: [] };
  f.api = {
    pumpSupported: true,
    owned: null,
    // The worker describes its sockets with this addon too (never the process's): it answers like an OS that says little.
    tcpInfoSource: 'test-fake',
    getBuffers: () => ({ sndBufBytes: null, rcvBufBytes: null, sndLocked: null, rcvLocked: null }),
    startPump(fd: number, opts: PumpOptions, onDone: (err: NodeJS.ErrnoException | null, reason: PumpEndReason) => void): NativePump | null {
      f.log.push('pump');
      if (startPump) return startPump(fd, opts);
      const p = new FakePump(fd, opts, onDone);
      f.pumps.push(p);
      return p;
    },
    setNotSentLowat(fd: number, bytes: number): void {
      f.log.push('lowat');
      f.lowat.push([fd, bytes]);
    },
    tcpInfo(fd: number) {
      return { source: 'test-fake', bytesAcked: f.acked.get(fd) ?? 0, unackedSegments: 0, notSentBytes: 0 };
    },
  } as unknown as NativeApi;
  return f;
}

export function initMsg(role: WorkerRole, o: Partial<WorkerInit> = {}): WorkerInit {
  return {
    type: 'init',
    role,
    bufferBytes: 64 * 1024,
    intervalMs: 1000,
    seconds: null,
    windowBytes: null,
    streams: 2,
    mssBytes: null,
    partner: 'the responder at 127.0.0.1:5211',
    ...o,
  };
}

/** A worker and what it said. */
export class Harness {
  readonly msgs: FromWorker[] = [];
  readonly warnings: string[] = [];
  readonly worker: DataWorker;
  private waiters: { type: FromWorker['type']; resolve: (m: FromWorker) => void }[] = [];

  /** `io` 'chosen': the worker chooses its byte loop itself, as in a run. */
  constructor(init: WorkerInit, native: NativeApi | null, io: 'native' | 'node' | 'chosen') {
    this.worker = new DataWorker(init, {
      send: (m) => {
        this.msgs.push(m);
        for (const w of this.waiters.filter((x) => x.type === m.type)) w.resolve(m);
        this.waiters = this.waiters.filter((x) => x.type !== m.type);
      },
      clock: mockClock,
      native,
      ...(io === 'chosen' ? {} : { io: io === 'native' ? { io, reason: null } : { io, reason: 'test' } }),
      dataConn: { mode: 'node', reason: null, handover: null },
      warn: (text) => void this.warnings.push(text),
      cpus: 64,
    });
  }

  /** The next message of this type (or one already sent). */
  next<T extends FromWorker['type']>(type: T): Promise<Extract<FromWorker, { type: T }>> {
    const had = this.msgs.find((m) => m.type === type);
    if (had) return Promise.resolve(had as Extract<FromWorker, { type: T }>);
    return new Promise((resolve) => this.waiters.push({ type, resolve: resolve as (m: FromWorker) => void }));
  }

  sent(type: FromWorker['type']): FromWorker[] {
    return this.msgs.filter((m) => m.type === type);
  }

  /** Connect stream `id` to the peer and wait until it is ready. */
  async connect(id: number, port: number, bytes: number | null = null): Promise<void> {
    const before = this.sent('ready').length;
    this.worker.handle({ type: 'connect', id, host: '127.0.0.1', port, headerB64: Buffer.from('HDR').toString('base64'), bytes });
    await until(() => this.sent('ready').length > before || this.sent('stream-error').length > 0);
  }

  start(): void {
    this.worker.handle({ type: 'start', startNs: mockClock.nowNs().toString() });
  }
}

/** Real event-loop turns until `ok` (I/O happens meanwhile); fails after 2000 turns. */
export async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (ok()) return;
    await turn();
    if (i > 100) await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition not met within 2000 event-loop turns');
}

/** A loopback peer: counts what it reads, keeps its sockets for the test to write to or end. */
export class Peer {
  readonly sockets: net.Socket[] = [];
  received = 0;
  private readonly server = net.createServer((socket) => {
    this.sockets.push(socket);
    socket.on('data', (b: Buffer) => void (this.received += b.length));
    socket.on('error', () => undefined);
  });

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  close(): void {
    for (const s of this.sockets.splice(0)) s.destroy();
    this.received = 0;
    this.server.close();
  }
}
