/**
 * The controller: the PC where the user presses Start. Dials the responder, walks its run's
 * states (controller-state.ts), runs its own data plane, and returns the run's
 * `longhaul.result/1` — also when the run fails or is stopped: then the result is marked partial
 * and holds everything measured so far.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { LonghaulResult, PeerInfo, Side } from '../../contract/result.js';
import { ControlChannel } from '../../protocol/control-channel.js';
import { secureControl, type ControllerSecurity } from '../../security/controller-security.js';
import type { Message, MessageOf, StreamEnd } from '../../protocol/messages.js';
import { LonghaulError, ProtocolError, describeError } from '../../util/errors.js';
import { dial } from '../../util/net.js';
import { SOFTWARE } from '../../util/version.js';
import type { SideSample } from '../data-plane/data-plane.js';
import { planStreams } from '../../contract/stream-plan.js';
import { runParamsSchema, type RunParams } from '../../protocol/run-params.js';
import { STOP_GRACE_MS, collectThenFinish, localOs, runningTimeoutMs, windowInfo } from './run-common.js';
import { RunRecorder } from './run-recorder.js';
import { LocalSettingsRead } from './local-settings.js';
import { pingerFor } from './control-pinger.js';
import { attachControlDelay, type ControlRtts } from '../../analysis/delay-summary.js';
import type { CpuUse } from '../../contract/cpu-info.js';
import type { RunEvents, RunLinkHook } from './run-handle.js';
import type { SessionState } from '../../protocol/session-state.js';
import { CONTROLLER_MOVES, CONTROLLER_PROTOCOL, CONTROLLER_TAKES, type ControllerState, type ControllerStateAt, type StopOrder } from './controller-state.js';
import { partnerLabel } from '../../contract/partner-label.js';
import { forwardSamples, helloProblem, ownHello, paramsForPartner, resultsMessage, takeResults } from './peer-exchange.js';
import type { PlaneFactory, SessionChannel } from './session-channel.js';
import { sessionDataPlane } from './session-data-plane.js';
import { RunWatchdog } from './run-watchdog.js';
import { samePcOf } from './same-pc.js';

export interface ControllerOptions {
  host: string;
  port: number;
  params: RunParams;
  /** Abort to stop the run early; the result is then partial ("stopped by the user"). */
  signal?: AbortSignal;
  connectTimeoutMs?: number;
  timeoutsMs?: Partial<Record<SessionState, number>>;
  maxWorkersPerRole?: number;
  /** Link-emulator hook: told when the run starts; its record is copied into `result.link`. */
  link?: RunLinkHook;
  /** The path's wire rate as the user knows it (--path-rate), bit/s: recorded in `result.pathRate` for the advice. */
  pathRateBitsPerSec?: number | null;
  /** This PC's identity and paired peers: the control channel is TLS 1.3 to a pinned responder (docs/security.md). */
  security: ControllerSecurity;
  /**
   * Multi-peer runs (group-run.ts): called once this run's data streams are ready; the start goes
   * out when the promise resolves, so every peer of a group can be started in the same tick. A
   * rejection fails the run with its error. Without it the start goes out at once.
   */
  startGate?: () => Promise<void>;
  /** The control connection and the data plane; a run dials and spawns workers, unit tests give fakes. */
  deps?: ControllerDeps;
}

interface ControllerDeps {
  /** Dial the responder, secure and frame the control connection. */
  connect(opts: ControllerOptions): Promise<SessionChannel>;
  plane: PlaneFactory;
}

/** How long the final result waits for the link hook's refresh. */
const LINK_REFRESH_MS = 500;

const STOP_COMPLETE: StopOrder = { reason: 'complete', message: null, cut: false };

async function connectForReal(opts: ControllerOptions): Promise<SessionChannel> {
  const { host, port } = opts;
  const timeoutMs = opts.connectTimeoutMs ?? 10_000;
  const raw = await dial(host, port, timeoutMs);
  const { socket } = await secureControl(raw, `${host}:${port}`, opts.security, 'run', timeoutMs);
  return new ControlChannel(socket, { role: 'controller', timeoutsMs: opts.timeoutsMs, partnerAddress: `${host}:${port}` });
}

const REAL: ControllerDeps = { connect: connectForReal, plane: sessionDataPlane };

/** A run in progress. `result` settles with the result document; it never rejects for run failures. */
export class ControllerRun extends EventEmitter<RunEvents> {
  readonly result: Promise<LonghaulResult>;
  readonly params: RunParams;
  private state: ControllerState = { at: 'dialing' };
  private recorder: RunRecorder;
  private readonly deps: ControllerDeps;
  private readonly cookie = randomBytes(16).toString('hex');
  private readonly plan;
  /** This PC's TCP settings, read while the run goes: for the advice and for the responder. */
  private readonly settings = new LocalSettingsRead();
  private settle!: (r: LonghaulResult) => void;
  /** When the data plane started (`process.hrtime.bigint()`); null until then. */
  private startNs: bigint | null = null;
  /** The control channel's round trips, kept when the run settles. */
  private controlRtts: ControlRtts | null = null;
  /** The run's start, wall clock: the result's `startedAt`, set before the 'start' phase is told so live reports use the same instant. */
  startedAt: Date | null = null;

  constructor(private readonly opts: ControllerOptions) {
    super();
    this.params = runParamsSchema.parse(opts.params);
    this.plan = planStreams(this.params);
    this.deps = opts.deps ?? REAL;
    const link = opts.link;
    this.recorder = new RunRecorder(
      {
        id: this.cookie.slice(0, 16),
        software: SOFTWARE,
        writtenBy: 'controller',
        controller: { hostname: os.hostname(), address: 'local', software: SOFTWARE, os: localOs() },
        responder: { hostname: 'unknown', address: `${opts.host}:${opts.port}`, software: 'unknown' },
        params: this.params,
        window: windowInfo(this.params.windowBytes),
        startedAt: new Date(),
        link: link ? () => link.record() : undefined,
        pathRateBitsPerSec: opts.pathRateBitsPerSec ?? null,
        localSettings: () => this.settings.value,
      },
      this.plan,
    );
    this.result = new Promise((resolve) => (this.settle = resolve));
    opts.signal?.addEventListener('abort', () => this.stop('user'), { once: true });
    queueMicrotask(() => void this.connect());
  }

  /** Latest cumulative sample of a side (for live displays). */
  latest(side: Side): SideSample | undefined {
    return this.recorder.latest(side);
  }

  /** This PC's TCP settings as read for the advice ({} until read, or where unreadable). */
  get localSettings(): Record<string, string> {
    return this.settings.value ?? {};
  }

  /** The responder as it introduced itself (host name 'unknown' before its hello). */
  get responder(): PeerInfo {
    return this.recorder.responder;
  }

  /** When this run's data plane started (`process.hrtime.bigint()`), or null before the start. */
  get startedNs(): bigint | null {
    return this.startNs;
  }

  /** Where the run stands (for tests and progress displays). */
  get at(): ControllerState['at'] {
    return this.state.at;
  }

  /** Stop early; partial results are kept. Safe to call any time, twice. */
  stop(reason: 'user' | 'error' = 'user', message: string | null = null): void {
    const s = this.state;
    if (s.at === 'settled' || s.at === 'collecting') return;
    this.recorder.markPartial(reason === 'user' ? 'stopped by the user' : (message ?? 'stopped after an error'));
    const order: StopOrder = { reason, message, cut: false };
    switch (s.at) {
      case 'start':
        s.plane.stop(STOP_GRACE_MS);
        return this.to({ ...s, pendingStop: s.pendingStop ?? order });
      case 'running':
        s.plane.stop(STOP_GRACE_MS);
        return this.sendStop(s, order);
      case 'stopping':
      case 'reported':
        return; // the stop is out already
      default:
        // Nothing is flowing yet: abandon the session.
        return this.fail(new LonghaulError('LH_ERR_STOPPED', reason === 'user' ? 'stopped by the user before the run started' : (message ?? 'stopped')));
    }
  }

  /** Stop now, both ends dropping what is in flight (the path's measurement, once it has its figure); partial. */
  cutNow(why: string): void {
    const s = this.state;
    switch (s.at) {
      case 'settled':
      case 'collecting':
        return;
      case 'start':
        this.recorder.markPartial(why);
        s.plane.cut();
        return this.to({ ...s, pendingStop: { reason: 'user', message: why, cut: true } });
      case 'running':
        this.recorder.markPartial(why);
        s.plane.cut();
        return this.sendStop(s, { reason: 'user', message: why, cut: true });
      case 'stopping':
      case 'reported':
        this.recorder.markPartial(why);
        return s.plane.cut();
      default:
        return this.stop('user');
    }
  }

  private to(next: ControllerState): void {
    const from = this.state.at;
    if (from !== next.at && !CONTROLLER_MOVES[from].includes(next.at)) throw new Error(`controller: no move ${from} -> ${next.at}`);
    this.state = next;
    const p = CONTROLLER_PROTOCOL[next.at];
    if (p && 'channel' in next && next.channel.state !== p) {
      next.channel.enter(p);
      this.emit('phase', p);
    }
  }

  private async connect(): Promise<void> {
    this.emit('phase', 'hello');
    let channel: SessionChannel;
    try {
      channel = await this.deps.connect(this.opts);
    } catch (err) {
      return this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_PEER_GONE', describeError(err).message));
    }
    if (this.state.at !== 'dialing') return channel.destroy(); // stopped while dialing
    channel.on('message', (m) => this.onMessage(m));
    channel.on('failure', (err) => this.fail(err));
    channel.send(ownHello());
    this.to({ at: 'hello', channel });
  }

  /** A message the channel let through (its protocol state takes it): handled by this state, or the session fails. */
  private onMessage(m: Message): void {
    const s = this.state;
    if (!CONTROLLER_TAKES[s.at].includes(m.type)) {
      if (!('channel' in s)) return;
      return s.channel.fail(
        new ProtocolError('LH_ERR_UNEXPECTED_MESSAGE', `${s.channel.partnerLabel} sent "${m.type}", unexpected while this controller is in "${s.at}"`),
      );
    }
    switch (m.type) {
      case 'hello':
        return s.at === 'hello' ? this.onHello(s, m) : undefined;
      case 'params-ok':
        return s.at === 'params' ? this.openStreams(s, m) : undefined;
      case 'streams-ready':
        return s.at === 'streams' ? this.onStreamsReady(s) : undefined;
      case 'started':
        return s.at === 'start' ? this.onStarted(s) : undefined;
      case 'sample':
        this.recorder.addSample('responder', m);
        return void this.emit('sample', m, 'responder');
      case 'udp-end':
        return s.at === 'running' || s.at === 'stopping' ? s.plane.peerSendersDone(m.lastSeq) : undefined;
      case 'stop':
        return s.at === 'running' || s.at === 'stopping' ? this.onPeerStop(s, m) : undefined;
      case 'results':
        return s.at === 'stopping' ? this.onResults(s, m) : undefined;
      case 'done':
        return s.at === 'reported' ? this.onDone(s) : undefined;
      default:
        return;
    }
  }

  private onHello(s: ControllerStateAt<'hello'>, m: MessageOf<'hello'>): void {
    const label = partnerLabel('responder', { hostname: m.hostname, address: `${this.opts.host}:${this.opts.port}` });
    const problem = helloProblem(m, 'controller', this.params.protocol === 'udp', label);
    if (problem) return s.channel.fail(problem);
    // The first ping waits for params-ok: a responder that refuses the params closes at once, and a ping still
    // unread then makes its kernel reset the connection, dropping the error it sent (LH_ERR_PEER_GONE instead).
    const pinger = pingerFor(s.channel, m.capabilities, (phase, ms) => this.emit('controlRtt', { phase, ms }));
    this.recorder = this.recorder.withResponder({
      hostname: m.hostname,
      address: `${this.opts.host}:${this.opts.port}`,
      software: m.software,
      ...(m.os ? { os: m.os } : {}),
    });
    s.channel.send({ type: 'params', cookie: this.cookie, params: paramsForPartner(this.params, m) });
    this.to({ ...s, at: 'params', partner: m, pinger });
  }

  private openStreams(s: ControllerStateAt<'params'>, ok: MessageOf<'params-ok'>): void {
    s.pinger.pingIdle();
    const plane = this.deps.plane({
      params: this.params,
      plan: this.plan,
      side: 'controller',
      partner: partnerLabel('responder', this.recorder.responder),
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      samePc: samePcOf(this.opts.host),
    });
    forwardSamples(plane, 'controller', { recorder: () => this.recorder, channel: s.channel, show: (x, side) => this.emit('sample', x, side) });
    plane.on('error', (err) => {
      if (this.state.at === 'streams') this.fail(err);
    });
    plane.on('done', (ends) => this.onOwnEnds(ends, plane.cpu));
    this.to({ ...s, at: 'streams', plane, ready: false, opened: false });
    const { host, port, link } = this.opts;
    plane.openStreams(ok, { host, port, link, params: this.params, plan: this.plan, cookie: this.cookie, channel: s.channel }).then(
      () => {
        const now = this.state;
        if (now.at === 'streams') this.maybeBegin({ ...now, opened: true });
      },
      (err: unknown) => this.fail(new LonghaulError('LH_ERR_DATA_STREAM', `could not open the data streams: ${describeError(err).message}`)),
    );
  }

  /** The responder's streams are ready (UDP: it can come before our own senders are connected: the start waits for both). */
  private onStreamsReady(s: ControllerStateAt<'streams'>): void {
    if (s.ready) return s.channel.fail(new ProtocolError('LH_ERR_UNEXPECTED_MESSAGE', `${s.channel.partnerLabel} said "streams-ready" twice`));
    s.pinger.pingIdle();
    s.pinger.pingIdle();
    this.maybeBegin({ ...s, ready: true });
  }

  /** Both this side's streams and the responder's are up: start (when the group's gate opens, for a group run). */
  private maybeBegin(s: ControllerStateAt<'streams'>): void {
    this.to(s);
    if (!s.ready || !s.opened) return;
    const gate = this.opts.startGate;
    if (!gate) return this.begin(s);
    gate().then(
      () => {
        const now = this.state;
        if (now.at === 'streams') this.begin(now);
      },
      (err: unknown) => this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_STOPPED', describeError(err).message)),
    );
  }

  private begin(s: ControllerStateAt<'streams'>): void {
    this.startedAt = new Date();
    this.recorder.setStartedAt(this.startedAt);
    const deadlineMs = this.params.seconds === null ? null : this.params.seconds * 1000 + runningTimeoutMs(this.params.intervalSeconds) + STOP_GRACE_MS;
    const watchdog = new RunWatchdog(
      deadlineMs,
      runningTimeoutMs(this.params.intervalSeconds),
      () => this.recorder.bytesSoFar(),
      (quiet) => this.stop('error', `the run did not end: no byte moved for ${quiet} s after its deadline`),
    );
    const { ready: _ready, opened: _opened, ...live } = s;
    this.to({ ...live, at: 'start', watchdog, pendingStop: null });
    s.channel.send({ type: 'start' });
    this.startNs = process.hrtime.bigint();
    s.plane.start(this.startNs);
    this.opts.link?.onStart?.();
  }

  private onStarted(s: ControllerStateAt<'start'>): void {
    s.channel.setTimeout('running', runningTimeoutMs(this.params.intervalSeconds));
    const { pendingStop, ...live } = s;
    const running: ControllerStateAt<'running'> = { ...live, at: 'running' };
    this.to(running);
    s.pinger.startLoaded();
    if (pendingStop) this.sendStop(running, pendingStop);
  }

  /** The responder's stop: its own limit ended the run. Answered with this side's stop, unless that is out already (the two crossed). */
  private onPeerStop(s: ControllerStateAt<'running' | 'stopping'>, m: MessageOf<'stop'>): void {
    const why = `${partnerLabel('responder', this.recorder.responder)}: ${m.message ?? 'it stopped the run'}`;
    this.recorder.markPartial(why);
    if (m.code) this.recorder.addError({ code: m.code, message: why });
    if (s.at === 'running') this.stop('error', `${partnerLabel('responder', this.recorder.responder)} stopped the run: ${m.message ?? 'no reason given'}`);
  }

  private sendStop(s: ControllerStateAt<'running'>, order: StopOrder): void {
    s.pinger.stop();
    s.channel.send({ type: 'stop', reason: order.reason, message: order.message, ...(order.cut ? { cut: true } : {}) });
    this.to({ ...s, at: 'stopping' });
    this.maybeReport();
  }

  /** This side's streams are over (sent all, or received the peer's FIN on all): the run is complete. */
  private onOwnEnds(ends: StreamEnd[], cpu: CpuUse | null): void {
    this.recorder.setEnds('controller', ends);
    this.recorder.setCpu('controller', cpu);
    const s = this.state;
    switch (s.at) {
      case 'start':
        // Ended before the responder said it started (a short run over a long link): the stop waits for `started`.
        return this.to({ ...s, pendingStop: s.pendingStop ?? STOP_COMPLETE });
      case 'running':
        return this.sendStop(s, STOP_COMPLETE);
      case 'stopping':
        return this.maybeReport();
      default:
        return; // collecting: collectThenFinish waits for these ends itself
    }
  }

  private onResults(s: ControllerStateAt<'stopping'>, m: MessageOf<'results'>): void {
    takeResults(this.recorder, 'responder', m, `${partnerLabel('responder', this.recorder.responder)}: `);
    this.maybeReport();
  }

  /** Both ends' reports are in: this side's goes to the responder. */
  private maybeReport(): void {
    const s = this.state;
    if (s.at !== 'stopping' || !this.recorder.hasEnds('controller') || !this.recorder.hasEnds('responder')) return;
    s.channel.send(
      resultsMessage('controller', this.recorder.endsOf('controller'), this.recorder.partialReasonSoFar, s.partner, this.settings.value, s.plane.cpu),
    );
    this.to({ ...s, at: 'reported' });
  }

  private onDone(s: ControllerStateAt<'reported'>): void {
    s.channel.enter('done');
    s.channel.close();
    this.finish();
  }

  private fail(err: LonghaulError): void {
    const s = this.state;
    if (s.at === 'settled' || s.at === 'collecting') return;
    this.recorder.markPartial(err.message);
    this.recorder.addError(err.toJSON());
    if ('channel' in s) s.channel.destroy();
    const flowing = s.at === 'start' || s.at === 'running' || s.at === 'stopping';
    if (!flowing || this.recorder.hasEnds('controller')) return this.finish();
    // Keep what this side's workers measured: wait for their ends (bounded), then finish.
    this.release(s);
    this.to({ at: 'collecting', plane: s.plane });
    collectThenFinish(s.plane, () => this.finish());
  }

  /** Stop the timers of a state that is left for good (the plane is destroyed once the run settles). */
  private release(s: ControllerState): void {
    if ('watchdog' in s) s.watchdog.stop();
    if ('pinger' in s) {
      s.pinger.stop();
      this.controlRtts = s.pinger.figures();
    }
  }

  private finish(): void {
    const s = this.state;
    if (s.at === 'settled') return;
    this.release(s);
    if ('plane' in s) s.plane.destroy();
    this.to({ at: 'settled' });
    if (this.startNs === null) this.recorder.markPartial('the run never started');
    const refresh = this.opts.link?.refresh;
    if (!refresh) return this.settle(this.built());
    let built = false;
    const build = (): void => {
      if (built) return;
      built = true;
      clearTimeout(timer);
      this.settle(this.built());
    };
    const timer = setTimeout(build, LINK_REFRESH_MS);
    refresh().then(build, build);
  }

  /** The result, with the control channel's round trips in its delay. */
  private built(): LonghaulResult {
    const r = this.recorder.build();
    attachControlDelay(r, this.controlRtts);
    return r;
  }
}

/** Start a run; see `ControllerRun`. */
export function startRun(opts: ControllerOptions): ControllerRun {
  return new ControllerRun(opts);
}
