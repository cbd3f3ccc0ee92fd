/**
 * Longhaul as an iperf3 client (`longhaul run --iperf3 HOST[:5201]`): the partner runs
 * `iperf3 -s`, which has no pairing, so the control connection is iperf3's plain TCP.
 * The steps of iperf3/states.ts in order, each read with a deadline; Longhaul's data
 * plane carries the streams (window and MSS set before the handshake, TCP_INFO), and
 * the server's per-stream totals stand in for a responder's end report.
 */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { LonghaulResult, Side } from '../../contract/result.js';
import { makeCookie, resultIdOf } from '../../protocol/iperf3/cookie.js';
import { clientParamsDocument } from '../../protocol/iperf3/params-document.js';
import { readResults, resultsDocument } from '../../protocol/iperf3/results-document.js';
import { IPERF3_STATE, MAX_CLIENT_RESULTS_JSON_BYTES, MAX_SERVER_RESULTS_JSON_BYTES, stateName } from '../../protocol/iperf3/states.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { SessionState } from '../../protocol/session-state.js';
import { LonghaulError, PeerError, describeError } from '../../util/errors.js';
import { dial } from '../../util/net.js';
import { SOFTWARE } from '../../util/version.js';
import type { RunEvents } from '../session/run-handle.js';
import { DataPlane, type SideSample } from '../data-plane/data-plane.js';
import { Iperf3Control, iperf3Partner, readStateWhileMoving, unexpectedState } from './iperf3-control.js';
import { localResults, peerCpu, peerEnds } from './iperf3-ends.js';
import { planStreams } from '../../contract/stream-plan.js';
import { runParamsSchema, type RunParams } from '../../protocol/run-params.js';
import { STOP_GRACE_MS, windowInfo } from '../session/run-common.js';
import { RunRecorder } from '../session/run-recorder.js';
import { present } from '../../contract/present.js';
import { LocalSettingsRead } from '../session/local-settings.js';
import { udpIperf3Dial } from '../data-plane/udp/udp-setup.js';
import { udpAddress } from '../session/udp-session.js';
import { samePcOf } from '../session/same-pc.js';

interface Iperf3ClientOptions {
  host: string;
  port: number;
  params: RunParams;
  signal?: AbortSignal;
  /** Deadline of every step where this side waits for the server, ms (connect, each state, streams, results). */
  stepTimeoutMs?: number;
  maxWorkersPerRole?: number;
  /** The path's wire rate as the user knows it (--path-rate), bit/s: recorded in `result.pathRate` for the verdict and advice. */
  pathRateBitsPerSec?: number | null;
}

/**
 * The server's output is asked for (for its version) only when it stays small: iperf3 puts
 * every interval of every stream in it, about 300 bytes each.
 */
const SERVER_OUTPUT_MAX_STREAM_SECONDS = 20_000;

/**
 * After the server acknowledged our last byte, the time its loop gets to read the rest of
 * its socket buffer before TEST_END arrives: a few MiB at its read rate (GB/s on loopback).
 */
const READ_SETTLE_MS = 20;

/**
 * UDP, a reverse test: after the server's EXCHANGE_RESULTS (it stopped sending at our TEST_END, and
 * its datagrams went ahead of that state on the same path) our receivers end after this long
 * without a datagram, ms.
 */
const UDP_RECEIVE_QUIET_MS = 250;

export class Iperf3ClientRun extends EventEmitter<RunEvents> {
  readonly result: Promise<LonghaulResult>;
  readonly params: RunParams;
  private readonly cookie = makeCookie();
  private readonly plan;
  private readonly recorder: RunRecorder;
  private readonly stepMs: number;
  private control: Iperf3Control | null = null;
  private plane: DataPlane | null = null;
  private startNs: bigint | null = null;
  private endTest: (() => void) | null = null;
  /** Settles once this side's sending streams ended (at once when it sends none). */
  private sendersOut: Promise<void> = Promise.resolve();
  private settle!: (r: LonghaulResult) => void;
  private settled = false;
  /** This PC's TCP settings, read while the run goes, for the advice. */
  private readonly settings = new LocalSettingsRead();

  constructor(private readonly opts: Iperf3ClientOptions) {
    super();
    this.params = runParamsSchema.parse(opts.params);
    this.plan = planStreams(this.params);
    this.stepMs = opts.stepTimeoutMs ?? 10_000;
    this.recorder = new RunRecorder(
      {
        id: resultIdOf(this.cookie),
        software: SOFTWARE,
        writtenBy: 'controller',
        iperf3Peer: true,
        controller: { hostname: os.hostname(), address: 'local', software: SOFTWARE },
        responder: { hostname: opts.host, address: `${opts.host}:${opts.port}`, software: 'iperf3 (version not reported)' },
        params: this.params,
        window: windowInfo(this.params.windowBytes),
        startedAt: new Date(),
        localSettings: () => this.settings.value,
        pathRateBitsPerSec: opts.pathRateBitsPerSec ?? null,
      },
      this.plan,
    );
    this.result = new Promise((resolve) => (this.settle = resolve));
    opts.signal?.addEventListener('abort', () => this.stop(), { once: true });
    queueMicrotask(() => void this.run());
  }

  latest(side: Side): SideSample | undefined {
    return this.recorder.latest(side);
  }

  get startedNs(): bigint | null {
    return this.startNs;
  }

  /** Stop early: a running test ends as iperf3's do (TEST_END, results kept); before that, CLIENT_TERMINATE. */
  stop(): void {
    if (this.settled) return;
    this.recorder.markPartial('stopped by the user');
    if (this.endTest) return this.endTest();
    this.control?.writeState(IPERF3_STATE.CLIENT_TERMINATE);
    this.fail(new LonghaulError('LH_ERR_STOPPED', 'stopped by the user before the run started'));
  }

  private async run(): Promise<void> {
    try {
      await this.test();
    } catch (err) {
      this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_IO', describeError(err).message));
    }
  }

  private phase(p: SessionState): void {
    this.emit('phase', p);
  }

  private async test(): Promise<void> {
    const { host, port } = this.opts;
    this.phase('hello');
    const socket = await dial(host, port, this.stepMs);
    if (this.settled) return void socket.destroy();
    const c = new Iperf3Control(socket, MAX_SERVER_RESULTS_JSON_BYTES, iperf3Partner('server', socket, `${host}:${port}`));
    this.control = c;
    socket.write(this.cookie);
    await this.expectState(c, IPERF3_STATE.PARAM_EXCHANGE, this.stepMs);
    this.phase('params');
    const p = this.params;
    const output = p.streams * (p.direction === 'bidir' ? 2 : 1) * (p.seconds ?? 60) <= SERVER_OUTPUT_MAX_STREAM_SECONDS;
    c.writeJson(clientParamsDocument(p, output), 8 * 1024);
    await this.expectState(c, IPERF3_STATE.CREATE_STREAMS, this.stepMs);
    this.phase('streams');
    const { plane, done } = this.openPlane(c.partner);
    const ids = this.plan.map((s) => s.id);
    const udp = p.protocol === 'udp';
    // UDP: each stream's own socket makes iperf3's UDP handshake with the server's port, in order (udp/iperf3-connect.ts).
    const streams = udp
      ? udpIperf3Dial(plane, ids, udpAddress(socket.remoteAddress ?? host), port, false, this.stepMs)
      : plane.connectInOrder(ids, host, port, () => this.cookie);
    await withDeadline(streams, this.stepMs * this.plan.length, 'the data streams did not connect in time');
    await this.expectState(c, IPERF3_STATE.TEST_START, this.stepMs);
    await this.expectState(c, IPERF3_STATE.TEST_RUNNING, this.stepMs);
    this.begin(plane);
    const hardEnd = p.seconds !== null ? Date.now() + p.seconds * 1000 + 3 * this.stepMs : Infinity;
    // Progress is seen in the data plane's samples: a step shorter than 1.5 intervals would see none yet.
    const step = Math.max(this.stepMs, p.intervalSeconds * 1500);
    const next = await readStateWhileMoving(c, step, hardEnd, () => this.bytesSoFar(), 'EXCHANGE_RESULTS');
    this.refuseOn(next);
    if (next !== IPERF3_STATE.EXCHANGE_RESULTS) throw unexpectedState(next, 'instead of EXCHANGE_RESULTS');
    if (udp) plane.stop(UDP_RECEIVE_QUIET_MS, undefined, 'receive');
    const mine = await withDeadline(done, this.stepMs + STOP_GRACE_MS, 'the data streams did not end after the test');
    c.writeJson(
      resultsDocument(
        localResults(this.plan, mine, this.recorder.latest('controller')?.tcp),
        this.plan.some((s) => s.sender === 'controller'),
        null,
        plane.cpu,
      ),
      MAX_CLIENT_RESULTS_JSON_BYTES,
    );
    const peer = readResults(await c.readJson(MAX_SERVER_RESULTS_JSON_BYTES, this.stepMs, 'results'), this.plan.length);
    this.recorder.setEnds('responder', peerEnds(this.plan, 'responder', peer, udp));
    this.recorder.setCpu('controller', plane.cpu);
    this.recorder.setCpu('responder', plane.cpu ? peerCpu(peer, plane.cpu.wallSeconds) : null);
    this.recorder.withResponder({ hostname: host, address: `${host}:${port}`, software: `iperf3 ${peer.serverVersion ?? '(version not reported)'}` });
    await this.expectState(c, IPERF3_STATE.DISPLAY_RESULTS, this.stepMs);
    c.writeState(IPERF3_STATE.IPERF_DONE);
    c.end();
    this.phase('done');
    this.finish();
  }

  /** Read a state; the server's refusals and errors become this run's error. */
  private async expectState(c: Iperf3Control, want: number, timeoutMs: number): Promise<void> {
    const got = await c.readState(timeoutMs, stateName(want) ?? 'state');
    this.refuseOn(got);
    if (got !== want) throw unexpectedState(got, `instead of ${stateName(want)}`);
  }

  private refuseOn(state: number): void {
    if (state === IPERF3_STATE.ACCESS_DENIED) {
      throw new PeerError('LH_ERR_BUSY', 'the iperf3 server is busy running a test with another client; try again when it ends');
    }
    if (state === IPERF3_STATE.SERVER_TERMINATE) throw new PeerError('LH_ERR_IPERF3_SERVER_ERROR', 'the iperf3 server ended the test (SERVER_TERMINATE)');
    if (state === IPERF3_STATE.SERVER_ERROR) throw new ServerErrorPending();
  }

  private openPlane(partner: string): { plane: DataPlane; done: Promise<StreamEnd[]> } {
    const plane = new DataPlane({
      params: this.params,
      plan: this.plan,
      side: 'controller',
      partner,
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      samePc: samePcOf(this.opts.host),
      keepWorkersAfterDone: true,
    });
    this.plane = plane;
    if (this.plan.some((s) => s.sender === 'controller')) this.sendersOut = new Promise((resolve) => plane.once('sendersDone', () => resolve()));
    plane.on('sample', (s) => {
      this.recorder.addSample('controller', s);
      this.emit('sample', s, 'controller');
      if (this.params.bytes !== null && this.reachedBytes(s, this.params.bytes)) this.endTest?.();
    });
    plane.on('error', (err) => {
      if (this.startNs === null) this.fail(err);
    });
    const done = new Promise<StreamEnd[]>((resolve) =>
      plane.once('done', (ends) => {
        this.recorder.setEnds('controller', ends);
        // Our streams are over: when they were the senders, the test is (iperf3's end condition).
        this.endTest?.();
        resolve(ends);
      }),
    );
    return { plane, done };
  }

  /** iperf3's byte condition: either direction has moved `bytes` (sent by us, or received from the server). */
  private reachedBytes(s: SideSample, bytes: number): boolean {
    let sent = 0;
    let received = 0;
    for (const [id, bytes] of s.streams) {
      if (this.plan[id]?.sender === 'controller') sent += bytes;
      else received += bytes;
    }
    return sent >= bytes || received >= bytes;
  }

  /** TEST_RUNNING: the clock starts; the test ends at its time, its bytes, or a stop, whichever is first. */
  private begin(plane: DataPlane): void {
    this.startNs = process.hrtime.bigint();
    this.recorder.setStartedAt(new Date());
    plane.start(this.startNs);
    this.phase('running');
    let timer: NodeJS.Timeout | null = null;
    this.endTest = () => {
      if (!this.endTest) return;
      this.endTest = null;
      if (timer) clearTimeout(timer);
      plane.stop(STOP_GRACE_MS, undefined, 'send');
      this.phase('results');
      // The server stops counting at TEST_END: say it once our bytes have arrived there (UDP: once our
      // senders' queues went out; nothing acknowledges a datagram).
      const arrived = this.params.protocol === 'udp' ? withTimeout(this.sendersOut, STOP_GRACE_MS) : plane.drained(STOP_GRACE_MS);
      void arrived.then(() => {
        setTimeout(() => this.control?.writeState(IPERF3_STATE.TEST_END), READ_SETTLE_MS);
      });
    };
    if (this.params.seconds !== null) {
      timer = setTimeout(() => this.endTest?.(), this.params.seconds * 1000);
      timer.unref?.();
    }
  }

  private bytesSoFar(): number {
    return (this.recorder.latest('controller')?.streams ?? []).reduce((a, s) => a + s[1], 0);
  }

  private fail(err: LonghaulError): void {
    if (this.settled) return;
    if (err instanceof ServerErrorPending) {
      // SERVER_ERROR carries the server's error numbers: read them (bounded) for the message.
      void this.serverError().then((e) => this.fail(e));
      return;
    }
    this.recorder.markPartial(err.message);
    this.recorder.addError(err.toJSON());
    this.control?.destroy();
    this.endTest = null;
    this.finish();
  }

  private async serverError(): Promise<LonghaulError> {
    try {
      const item = await present(this.control, 'the control connection').read({ kind: 'error-codes' }, 2000, 'error numbers');
      if (item.kind === 'error-codes') {
        return new PeerError(
          'LH_ERR_IPERF3_SERVER_ERROR',
          `the iperf3 server refused the test: iperf3 error ${item.iperfErrno}${item.osErrno ? `, OS error ${item.osErrno}` : ''} (see iperf3's iperf_api.h; its own log names it)`,
        );
      }
    } catch {
      // the numbers did not come: the state alone says it
    }
    return new PeerError('LH_ERR_IPERF3_SERVER_ERROR', 'the iperf3 server refused the test (SERVER_ERROR)');
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    this.plane?.destroy();
    if (this.startNs === null) this.recorder.markPartial('the run never started');
    this.settle(this.recorder.build());
  }
}

/** SERVER_ERROR was read; its numbers follow (handled in fail()). */
class ServerErrorPending extends LonghaulError {
  constructor() {
    super('LH_ERR_IPERF3_SERVER_ERROR', 'the iperf3 server reported an error');
  }
}

/** `p`, or nothing after `timeoutMs`. */
function withTimeout(p: Promise<void>, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref?.();
    void p.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function withDeadline<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PeerError('LH_ERR_TIMEOUT', message)), ms);
    timer.unref?.();
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Start a run against an iperf3 server; see `Iperf3ClientRun`. */
export function startIperf3Run(opts: Iperf3ClientOptions): Iperf3ClientRun {
  return new Iperf3ClientRun(opts);
}
