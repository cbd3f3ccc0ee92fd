/**
 * One iperf3 test served by Longhaul (`longhaul listen --iperf3`): an iperf3 client
 * (`iperf3 -c`) is the controller, this PC the responder. The protocol's steps
 * (iperf3/states.ts) in order, each with its own deadline; Longhaul's data plane
 * carries the streams, so the window is set on the listener before the handshake,
 * TCP_INFO is sampled, and the result is an ordinary `longhaul.result/1`.
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import os from 'node:os';
import type { LonghaulResult, Side } from '../../contract/result.js';
import type { ListenerMss, ListenerTuning } from '../../native/tuned-socket.js';
import { plainAddress } from '../../util/net.js';
import { resultIdOf } from '../../protocol/iperf3/cookie.js';
import { readClientParams, type Iperf3ClientAsk, type ServerLimits } from '../../protocol/iperf3/params-document.js';
import { readResults, resultsDocument } from '../../protocol/iperf3/results-document.js';
import {
  IPERF3_ERRNO,
  IPERF3_STATE,
  MAX_CLIENT_RESULTS_JSON_BYTES,
  MAX_PARAMS_JSON_BYTES,
  MAX_SERVER_RESULTS_JSON_BYTES,
} from '../../protocol/iperf3/states.js';
import { LonghaulError, PeerError, describeError } from '../../util/errors.js';
import { SOFTWARE } from '../../util/version.js';
import { rawHandle, stopReading } from '../../native/node-handle.js';
import { DataPlane, type SideSample } from '../data-plane/data-plane.js';
import { Iperf3Control, readStateWhileMoving, unexpectedState } from './iperf3-control.js';
import { localResults, peerCpu, peerEnds } from './iperf3-ends.js';
import type { StreamEnd } from '../../protocol/messages.js';
import { planStreams, type PlannedStream } from '../../contract/stream-plan.js';
import { type RunParams } from '../../protocol/run-params.js';
import { STOP_GRACE_MS, windowInfo } from '../session/run-common.js';
import { RunRecorder } from '../session/run-recorder.js';
import { itemAt, present } from '../../contract/present.js';
import { LocalSettingsRead } from '../session/local-settings.js';
import { lastSeqOf, peerSendersDone, udpAddress } from '../session/udp-session.js';
import { Iperf3UdpListener } from './iperf3-udp-listener.js';
import { samePcOf } from '../session/same-pc.js';

/** Deadlines of the steps where the server waits for its client, ms. */
export interface Iperf3ServerTimeouts {
  params: number;
  streams: number;
  /** Silence allowed while running, with no byte moving either (time-limited tests also end at their time + this). */
  running: number;
  results: number;
  done: number;
}

export const DEFAULT_IPERF3_SERVER_TIMEOUTS: Iperf3ServerTimeouts = { params: 10_000, streams: 10_000, running: 10_000, results: 10_000, done: 10_000 };

interface Iperf3SessionOptions {
  limits: ServerLimits;
  timeoutsMs: Iperf3ServerTimeouts;
  maxWorkersPerRole?: number;
  /** `ready`, when given, settles once the listener takes the streams (iperf3-port-takeover.ts): CREATE_STREAMS waits for it. */
  tuneListener?: (windowBytes: number) => ListenerTuning & { ready?: Promise<void> };
  tuneListenerMss?: (mssBytes: number) => ListenerMss;
}

interface Iperf3SessionEvents {
  phase: [string];
  sample: [SideSample, Side];
  /** The test ended: its result (null when it never started) and the error that ended it, if any. */
  end: [LonghaulResult | null, LonghaulError | null];
}

export class Iperf3ServerSession extends EventEmitter<Iperf3SessionEvents> {
  readonly remoteAddress: string;
  /** Where the client reached this server (the control connection's local address). */
  readonly localAddress: string;
  private plan: PlannedStream[] = [];
  private plane: DataPlane | null = null;
  private recorder: RunRecorder | null = null;
  private accepted = 0;
  private handedOver = 0;
  private streamsIn: (() => void) | null = null;
  private tuning: { restore: () => string | null }[] = [];
  private ended = false;
  private started = false;
  private listenerReady: Promise<void> | undefined;
  /** A UDP test's listener on this server's port, while its streams come in. */
  private udpListener: Iperf3UdpListener | null = null;

  constructor(
    private readonly control: Iperf3Control,
    private readonly cookie: Buffer,
    private readonly opts: Iperf3SessionOptions,
  ) {
    super();
    this.remoteAddress = control.socket.remoteAddress ?? '';
    this.localAddress = control.socket.localAddress ?? '';
    queueMicrotask(() => void this.run());
  }

  /** Whether a data connection with this cookie belongs here now. */
  wantsData(cookie: Buffer): boolean {
    return this.streamsIn !== null && cookie.equals(this.cookie) && this.accepted < this.plan.length;
  }

  /** A data connection that sent this test's cookie: the next stream, in accept order (iperf3 numbers them so). */
  async acceptData(socket: net.Socket): Promise<void> {
    const index = this.accepted++;
    // Stop libuv reading before the handover: the worker must see every payload byte.
    stopReading(socket);
    try {
      await present(this.plane, 'the data plane').adopt(itemAt(this.plan, index, 'planned stream').id, rawHandle(socket));
    } catch (err) {
      socket.destroy();
      return this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_WORKER', describeError(err).message));
    }
    socket.destroy(); // the worker holds its own copy of the descriptor now
    if (++this.handedOver === this.plan.length) this.streamsIn?.();
  }

  /** A data connection the addon accepted with this test's cookie (iperf3-port-takeover.ts): the next stream, in accept order. */
  async acceptOwned(fd: number): Promise<void> {
    const index = this.accepted++;
    try {
      await present(this.plane, 'the data plane').adoptOwned(itemAt(this.plan, index, 'planned stream').id, fd);
    } catch (err) {
      return this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_WORKER', describeError(err).message));
    }
    if (++this.handedOver === this.plan.length) this.streamsIn?.();
  }

  private async run(): Promise<void> {
    try {
      await this.serve();
    } catch (err) {
      this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_IO', describeError(err).message));
    }
  }

  private async serve(): Promise<void> {
    const c = this.control;
    const t = this.opts.timeoutsMs;
    this.emit('phase', 'params');
    c.writeState(IPERF3_STATE.PARAM_EXCHANGE);
    let ask: Iperf3ClientAsk;
    try {
      const verdict = readClientParams(await c.readJson(MAX_PARAMS_JSON_BYTES, t.params, 'parameters'), this.opts.limits);
      if (verdict.kind === 'refuse') {
        c.writeServerError(verdict.iperfErrno);
        throw new LonghaulError('LH_ERR_IPERF3_REFUSED', `refused ${verdict.message}`);
      }
      ask = verdict.ask;
    } catch (err) {
      if ((err as LonghaulError).code === 'LH_ERR_IPERF3_PROTOCOL') c.writeServerError(IPERF3_ERRNO.IERECVPARAMS);
      throw err;
    }
    const params = ask.params as RunParams;
    const udp = params.protocol === 'udp';
    const { plane, recorder, done } = this.prepare(params, ask);
    await this.listenerReady;
    if (udp) await this.openUdp();
    this.emit('phase', 'streams');
    c.writeState(IPERF3_STATE.CREATE_STREAMS);
    if (this.udpListener) await this.udpStreams(this.udpListener, plane, ask.counters64, t.streams);
    else await this.waitForStreams(t.streams);
    c.writeState(IPERF3_STATE.TEST_START);
    c.writeState(IPERF3_STATE.TEST_RUNNING);
    const startNs = process.hrtime.bigint();
    recorder.setStartedAt(new Date());
    plane.start(startNs);
    this.started = true;
    this.emit('phase', 'running');
    const state = await this.readWhileRunning(params);
    if (state === IPERF3_STATE.CLIENT_TERMINATE) {
      throw new PeerError('LH_ERR_PEER_GONE', 'the iperf3 client ended the test early (CLIENT_TERMINATE)');
    }
    if (state !== IPERF3_STATE.TEST_END) throw unexpectedState(state, 'while the test was running');
    // The client stopped: our senders stop now; receivers end once they hold what the client says it sent.
    plane.stop(STOP_GRACE_MS, undefined, 'send');
    this.emit('phase', 'results');
    c.writeState(IPERF3_STATE.EXCHANGE_RESULTS);
    let peer;
    try {
      peer = readResults(await c.readJson(MAX_CLIENT_RESULTS_JSON_BYTES, t.results, 'results'), this.plan.length);
    } catch (err) {
      if ((err as LonghaulError).code === 'LH_ERR_IPERF3_PROTOCOL') c.writeServerError(IPERF3_ERRNO.IERECVRESULTS);
      throw err;
    }
    const clientEnds = peerEnds(this.plan, 'controller', peer, udp);
    recorder.setEnds('controller', clientEnds);
    if (udp) {
      // The client's datagrams sent are its last numbers: our receivers count the tail and end.
      peerSendersDone(plane, lastSeqOf(clientEnds));
    } else {
      const targets = new Map(clientEnds.filter((e) => e.role === 'send').map((e) => [e.id, e.bytes]));
      plane.stop(STOP_GRACE_MS, targets, 'receive');
    }
    const mine = await this.planeEnds(done, t.results + STOP_GRACE_MS);
    recorder.setCpu('responder', plane.cpu);
    recorder.setCpu('controller', plane.cpu ? peerCpu(peer, plane.cpu.wallSeconds) : null);
    const tcp = recorder.latest('responder')?.tcp;
    const sending = this.plan.some((p) => p.sender === 'responder');
    const text = ask.getServerOutput ? this.outputText(mine.reduce((a, e) => a + (e.role === 'receive' ? e.bytes : 0), 0)) : null;
    c.writeJson(
      resultsDocument(localResults(this.plan, mine, tcp, recorder.omittedSoFar('responder')), sending, text, plane.cpu),
      MAX_SERVER_RESULTS_JSON_BYTES,
    );
    c.writeState(IPERF3_STATE.DISPLAY_RESULTS);
    this.emit('phase', 'done');
    try {
      const last = await c.readState(t.done, 'IPERF_DONE');
      if (last !== IPERF3_STATE.IPERF_DONE)
        recorder.addError({ code: 'LH_ERR_IPERF3_PROTOCOL', message: `the iperf3 client ended with state ${last} instead of IPERF_DONE` });
    } catch (err) {
      // Every figure is in: a client that leaves without its last byte loses nothing.
      recorder.addError(describeError(err));
    }
    this.finish(null);
  }

  /** Plan, data plane and recorder for the client's parameters; the listener's window and MSS set for the streams to come. */
  private prepare(params: RunParams, ask: Iperf3ClientAsk): { plane: DataPlane; recorder: RunRecorder; done: Promise<StreamEnd[]> } {
    this.plan = planStreams(params);
    let listenerWindow: { applied: boolean; reason: string | null; window?: null } | undefined;
    if (params.windowBytes !== null) {
      const t = this.opts.tuneListener?.(params.windowBytes) ?? {
        applied: false as const,
        reason: "this server cannot set its listening socket's buffers",
        restore: () => null,
      };
      this.tuning.push(t);
      this.listenerReady = 'ready' in t ? t.ready : undefined;
      listenerWindow = t.applied ? { applied: true, reason: null, window: (t.window ?? null) as null } : { applied: false, reason: t.reason };
    }
    let listenerMss = null;
    if (params.mssBytes) {
      const m = this.opts.tuneListenerMss?.(params.mssBytes) ?? null;
      if (m) this.tuning.push(m);
      listenerMss = m?.setup ?? { requestedBytes: params.mssBytes, applied: false, reason: "this server cannot set its listening socket's MSS" };
    }
    const settings = new LocalSettingsRead(); // this PC's TCP settings, for the advice
    const recorder = new RunRecorder(
      {
        id: resultIdOf(this.cookie),
        software: SOFTWARE,
        writtenBy: 'responder',
        iperf3Peer: true,
        controller: {
          // An IPv4 client seen through the dual-stack listener is named as IPv4 (History shows this).
          hostname: plainAddress(this.remoteAddress),
          address: `${this.remoteAddress}:${this.control.socket.remotePort ?? 0}`,
          software: `iperf3 ${ask.version ?? '(version not sent)'}`,
        },
        responder: { hostname: os.hostname(), address: 'local', software: SOFTWARE },
        params,
        window: windowInfo(params.windowBytes),
        startedAt: new Date(),
        localSettings: () => settings.value,
      },
      this.plan,
    );
    this.recorder = recorder;
    const plane = new DataPlane({
      params,
      plan: this.plan,
      side: 'responder',
      partner: this.control.partner,
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      samePc: samePcOf(this.remoteAddress),
      listenerWindow,
      listenerMss,
    });
    this.plane = plane;
    plane.on('sample', (s) => {
      recorder.addSample('responder', s);
      this.emit('sample', s, 'responder');
    });
    plane.on('error', (err) => {
      if (!this.started) this.fail(err);
    });
    const done = new Promise<StreamEnd[]>((resolve) =>
      plane.once('done', (ends) => {
        recorder.setEnds('responder', ends);
        resolve(ends);
      }),
    );
    return { plane, recorder, done };
  }

  /** UDP: bind this server's port for the client's streams before CREATE_STREAMS asks for them (a port held elsewhere is refused). */
  private async openUdp(): Promise<void> {
    try {
      this.udpListener = await Iperf3UdpListener.open(udpAddress(this.localAddress), this.control.socket.localPort ?? 0);
    } catch (err) {
      this.control.writeServerError(IPERF3_ERRNO.IESTREAMLISTEN);
      throw err;
    }
  }

  /** UDP: the client's streams in order, each joined by its worker (iperf3-udp-listener.ts); the listener closes once all are in. */
  private async udpStreams(listener: Iperf3UdpListener, plane: DataPlane, counters64: boolean, timeoutMs: number): Promise<void> {
    const onStream = (): void => {
      this.accepted++;
      this.handedOver++;
    };
    try {
      await listener.accept(
        plane,
        this.plan.map((p) => p.id),
        counters64,
        timeoutMs,
        onStream,
      );
    } finally {
      listener.close();
      this.udpListener = null;
    }
  }

  private waitForStreams(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const socket = this.control.socket;
      const done = (err: LonghaulError | null): void => {
        clearTimeout(timer);
        socket.off('close', onClose);
        this.streamsIn = null;
        if (err) reject(err);
        else resolve();
      };
      const onClose = (): void => done(new PeerError('LH_ERR_PEER_GONE', 'the iperf3 client closed the control connection before its streams were in'));
      const timer = setTimeout(
        () => done(new PeerError('LH_ERR_TIMEOUT', `the iperf3 client opened ${this.handedOver} of ${this.plan.length} streams within ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      timer.unref?.();
      socket.once('close', onClose);
      this.streamsIn = () => done(null);
    });
  }

  /** The client's next state while the data flows: silence is fine while bytes move, never past the test's time and a margin. */
  private readWhileRunning(params: RunParams): Promise<number> {
    // Progress is seen in the data plane's samples: a step shorter than 1.5 intervals would see none yet.
    const step = Math.max(this.opts.timeoutsMs.running, params.intervalSeconds * 1500);
    const hardEnd = params.seconds !== null ? Date.now() + params.seconds * 1000 + step : Infinity;
    return readStateWhileMoving(this.control, step, hardEnd, () => this.bytesSoFar(), 'TEST_END');
  }

  private bytesSoFar(): number {
    return (this.recorder?.latest('responder')?.streams ?? []).reduce((a, s) => a + s[1], 0);
  }

  /** Every local stream's end, once the data plane has them (bounded: a stream that never ends fails the test). */
  private planeEnds(done: Promise<StreamEnd[]>, timeoutMs: number): Promise<StreamEnd[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new PeerError('LH_ERR_TIMEOUT', `the data streams did not end within ${timeoutMs / 1000} s after the test`)),
        timeoutMs,
      );
      timer.unref?.();
      void done.then((ends) => {
        clearTimeout(timer);
        resolve(ends);
      });
    });
  }

  private outputText(receivedBytes: number): string {
    return `Longhaul ${SOFTWARE} served this test through its iperf3 protocol; result ${resultIdOf(this.cookie)}, ${receivedBytes} bytes received here.\n`;
  }

  private fail(err: LonghaulError): void {
    if (this.ended) return;
    this.recorder?.markPartial(err.message);
    this.recorder?.addError(err.toJSON());
    this.finish(err);
  }

  private finish(err: LonghaulError | null): void {
    if (this.ended) return;
    this.ended = true;
    this.streamsIn = null;
    this.udpListener?.close();
    this.plane?.destroy();
    for (const t of this.tuning) t.restore();
    if (err) this.control.destroy();
    else this.control.end();
    const result = this.recorder && this.handedOver === this.plan.length && this.plan.length > 0 ? this.recorder.build() : null;
    this.emit('end', result, err);
  }
}
