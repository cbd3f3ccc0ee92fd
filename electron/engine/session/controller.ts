/**
 * The controller: the PC where the user presses Start. Dials the responder,
 * walks the session state machine, runs its own data plane, and returns the
 * run's `longhaul.result/1` — also when the run fails or is stopped: then the
 * result is marked partial and holds everything measured so far.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import type { LonghaulResult, PeerInfo, Side } from '../../contract/result.js';
import { ControlChannel } from '../../protocol/control-channel.js';
import { secureControl, type ControllerSecurity } from '../../security/controller-security.js';
import { PROTOCOL_VERSION, type Message, type MessageOf } from '../../protocol/messages.js';
import { LonghaulError, describeError } from '../../util/errors.js';
import { dial } from '../../util/net.js';
import { SOFTWARE } from '../../util/version.js';
import { DataPlane, type SideSample } from '../data-plane/data-plane.js';
import { planStreams, runParamsSchema, type RunParams } from './params.js';
import { openControllerStreams } from './controller-streams.js';
import { peerSendersDone } from './udp-session.js';
import {
  CAPABILITIES,
  CONTROL_PING,
  UDP_CAPABILITY,
  sampleMessage,
  STOP_GRACE_MS,
  collectThenFinish,
  localOs,
  runningTimeoutMs,
  windowInfo,
} from './run-common.js';
import { ControllerLifecycle } from './run-lifecycle.js';
import { RunRecorder } from './run-recorder.js';
import { present } from '../../contract/present.js';
import { settingsForPartner } from './partner-settings.js';
import { LocalSettingsRead } from './local-settings.js';
import { ControlPinger } from './control-pinger.js';
import { attachControlDelay } from '../../analysis/delay-summary.js';
import type { RunEvents, RunLinkHook } from './run-handle.js';
import type { SessionState } from '../../protocol/session-state.js';

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
}

/** How long the final result waits for the link hook's refresh. */
const LINK_REFRESH_MS = 500;

export type { RunEvents, RunHandle, RunLinkHook } from './run-handle.js';

/** A run in progress. `result` settles with the result document; it never rejects for run failures. */
export class ControllerRun extends EventEmitter<RunEvents> {
  readonly result: Promise<LonghaulResult>;
  readonly params: RunParams;
  private channel: ControlChannel | null = null;
  private plane: DataPlane | null = null;
  private recorder: RunRecorder;
  private partnerCapabilities: string[] = [];
  /** The control channel's round trips (a responder that answers pings: CONTROL_PING). */
  private pinger: ControlPinger | null = null;
  private readonly cookie = randomBytes(16).toString('hex');
  /** Settles when this side's streams are set up (or failed): the start waits for it. */
  private streamsOpened: Promise<void> = Promise.resolve();
  private readonly plan;
  private readonly lifecycle = new ControllerLifecycle();
  /** This PC's TCP settings, read while the run goes: for the advice and for the responder. */
  private readonly settings = new LocalSettingsRead();
  private settle!: (r: LonghaulResult) => void;
  private watchdog: NodeJS.Timeout | null = null;
  private startNs: bigint | null = null;
  /** The run's start, wall clock: the result's `startedAt`, set before the 'start' phase is told so live reports use the same instant. */
  startedAt: Date | null = null;

  constructor(private readonly opts: ControllerOptions) {
    super();
    this.params = runParamsSchema.parse(opts.params);
    this.plan = planStreams(this.params);
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

  /** Stop early; partial results are kept. Safe to call any time, twice. */
  stop(reason: 'user' | 'error' = 'user', message: string | null = null): void {
    if (this.lifecycle.reached('settled')) return;
    this.recorder.markPartial(reason === 'user' ? 'stopped by the user' : (message ?? 'stopped after an error'));
    if (!this.channel || !this.lifecycle.reached('running')) {
      // Nothing is flowing yet: abandon the session.
      this.fail(new LonghaulError('LH_ERR_STOPPED', reason === 'user' ? 'stopped by the user before the run started' : (message ?? 'stopped')));
      return;
    }
    this.sendStop(reason, message);
    this.plane?.stop(STOP_GRACE_MS);
  }

  /** Stop now, both ends dropping what is in flight (the path's measurement, once it has its figure); partial. */
  cutNow(why: string): void {
    if (this.lifecycle.reached('settled')) return;
    if (!this.channel || !this.lifecycle.reached('running')) return this.stop('user');
    this.recorder.markPartial(why);
    this.sendStop('user', why, true);
    this.plane?.cut();
  }

  private async connect(): Promise<void> {
    const { host, port } = this.opts;
    this.emit('phase', 'hello');
    let socket: net.Socket;
    try {
      socket = await dial(host, port, this.opts.connectTimeoutMs ?? 10_000);
      socket = (await secureControl(socket, `${host}:${port}`, this.opts.security, 'run', this.opts.connectTimeoutMs ?? 10_000)).socket;
    } catch (err) {
      return this.fail(err as LonghaulError);
    }
    if (this.lifecycle.reached('settled')) {
      socket.destroy();
      return;
    }
    const channel = new ControlChannel(socket, { role: 'controller', timeoutsMs: this.opts.timeoutsMs });
    this.channel = channel;
    channel.on('message', (m) => this.onMessage(channel, m));
    channel.on('failure', (err) => this.fail(err));
    channel.send({ type: 'hello', protocol: PROTOCOL_VERSION, software: SOFTWARE, hostname: os.hostname(), capabilities: CAPABILITIES, os: localOs() });
  }

  private onMessage(channel: ControlChannel, m: Message): void {
    switch (m.type) {
      case 'hello':
        return this.onHello(channel, m);
      case 'params-ok':
        this.pinger?.pingIdle();
        this.streamsOpened = this.openStreams(channel, m);
        return;
      case 'streams-ready':
        this.pinger?.pingIdle();
        this.pinger?.pingIdle();
        // UDP: the responder's streams-ready can overtake our own senders' connect (nothing of ours reaches it first).
        return void this.streamsOpened.then(() => this.onStreamsReady(channel));
      case 'udp-end':
        if (this.plane) peerSendersDone(this.plane, m.lastSeq);
        return;
      case 'started':
        if (channel.state !== 'start') return; // the run already ended locally (long link, small byte budget): stay in results
        channel.setTimeout('running', runningTimeoutMs(this.params.intervalSeconds));
        channel.enter('running');
        this.pinger?.startLoaded();
        this.emit('phase', 'running');
        return;
      case 'sample':
        this.recorder.addSample('responder', m);
        this.emit('sample', m, 'responder');
        return;
      case 'stop':
        // The responder's own limit ended the run: stop as for any stop, keeping its reason.
        this.recorder.markPartial(`responder: ${m.message ?? 'it stopped the run'}`);
        if (m.code) this.recorder.addError({ code: m.code, message: `responder: ${m.message ?? 'it stopped the run'}` });
        return this.stop('error', `the responder stopped the run: ${m.message ?? 'no reason given'}`);
      case 'results':
        this.recorder.setEnds('responder', m.streams);
        this.recorder.setPeerSettings('responder', m.settings);
        this.recorder.setCpu('responder', m.cpu);
        if (m.partial && m.reason) this.recorder.markPartial(`responder: ${m.reason}`);
        return this.maybeSendResults();
      case 'done':
        channel.enter('done');
        channel.close();
        return this.finish();
      default:
        return;
    }
  }

  private onHello(channel: ControlChannel, m: MessageOf<'hello'>): void {
    if (m.protocol !== PROTOCOL_VERSION) {
      return channel.fail(
        new LonghaulError(
          'LH_ERR_PROTOCOL_VERSION',
          `the responder speaks protocol ${m.protocol}; this controller speaks ${PROTOCOL_VERSION}: install the same Longhaul version on both PCs`,
        ),
      );
    }
    if (this.params.protocol === 'udp' && !m.capabilities.includes(UDP_CAPABILITY)) {
      return channel.fail(
        new LonghaulError('LH_ERR_PROTOCOL_VERSION', "the responder's Longhaul does not test UDP: install the same Longhaul version on both PCs"),
      );
    }
    this.partnerCapabilities = m.capabilities;
    // The first ping waits for params-ok: a responder that refuses the params closes at once, and a ping still
    // unread then makes its kernel reset the connection, dropping the error it sent (LH_ERR_PEER_GONE instead).
    if (m.capabilities.includes(CONTROL_PING)) this.pinger = new ControlPinger(channel, (phase, ms) => this.emit('controlRtt', { phase, ms }));
    this.recorder = this.recorder.withResponder({
      hostname: m.hostname,
      address: `${this.opts.host}:${this.opts.port}`,
      software: m.software,
      ...(m.os ? { os: m.os } : {}),
    });
    channel.send({ type: 'params', cookie: this.cookie, params: this.params });
    channel.enter('params');
    this.emit('phase', 'params');
  }

  private async openStreams(channel: ControlChannel, ok: MessageOf<'params-ok'>): Promise<void> {
    channel.enter('streams');
    this.emit('phase', 'streams');
    const plane = new DataPlane({ params: this.params, plan: this.plan, side: 'controller', maxWorkersPerRole: this.opts.maxWorkersPerRole });
    this.plane = plane;
    plane.on('sample', (s) => {
      this.recorder.addSample('controller', s);
      this.channel?.send(sampleMessage(s));
      this.emit('sample', s, 'controller');
    });
    plane.on('error', (err) => {
      if (!this.lifecycle.reached('running')) this.fail(err);
    });
    plane.on('done', (ends) => {
      this.recorder.setEnds('controller', ends);
      this.recorder.setCpu('controller', plane.cpu);
      // Our streams are over (sent all, or received the peer's FIN on all): the run is complete.
      this.sendStop('complete', null);
      this.lifecycle.advance('ended');
      this.maybeSendResults();
    });
    try {
      const { host, port, link } = this.opts;
      await openControllerStreams(plane, ok, { host, port, link, params: this.params, plan: this.plan, cookie: this.cookie, channel });
    } catch (err) {
      this.fail(new LonghaulError('LH_ERR_DATA_STREAM', `could not open the data streams: ${describeError(err).message}`));
    }
  }

  private onStreamsReady(channel: ControlChannel): void {
    const gate = this.opts.startGate;
    if (!gate) return this.begin(channel);
    gate().then(
      () => {
        if (!this.lifecycle.reached('settled')) this.begin(channel);
      },
      (err: unknown) => this.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_STOPPED', describeError(err).message)),
    );
  }

  private begin(channel: ControlChannel): void {
    channel.enter('start');
    this.startedAt = new Date();
    this.recorder.setStartedAt(this.startedAt);
    this.emit('phase', 'start');
    this.lifecycle.advance('running');
    channel.send({ type: 'start' });
    this.startNs = process.hrtime.bigint();
    present(this.plane, 'the data plane (streams-ready comes after params-ok)').start(this.startNs);
    this.opts.link?.onStart?.();
    if (this.params.seconds !== null) {
      // Senders stop themselves at the deadline; this catches a peer that never sends its FIN.
      // Past the deadline, bytes the kernels already hold may still be draining over a slow
      // link: the watchdog only fires once nothing has moved, on either side, for a while.
      const ms = this.params.seconds * 1000 + runningTimeoutMs(this.params.intervalSeconds) + STOP_GRACE_MS;
      this.armWatchdog(ms, -1);
    }
  }

  private armWatchdog(ms: number, lastMoved: number): void {
    this.watchdog = setTimeout(() => {
      const moved = this.recorder.bytesSoFar();
      if (moved !== lastMoved) return this.armWatchdog(runningTimeoutMs(this.params.intervalSeconds), moved);
      this.stop('error', `the run did not end: no byte moved for ${Math.round(ms / 1000)} s after its deadline`);
    }, ms);
    this.watchdog.unref?.();
  }

  private sendStop(reason: 'complete' | 'user' | 'error', message: string | null, cut = false): void {
    if (!this.channel || !this.lifecycle.advance('stopping')) return;
    this.pinger?.stop();
    this.channel.send({ type: 'stop', reason, message, ...(cut ? { cut } : {}) });
    if (this.channel.state === 'running' || this.channel.state === 'start') this.channel.enter('results');
    this.emit('phase', 'results');
  }

  private maybeSendResults(): void {
    if (this.lifecycle.phase !== 'ended' || !this.recorder.hasEnds('responder') || !this.channel) return;
    const mine = this.recorder.endsOf('controller');
    const failed = mine.find((e) => e.error);
    const reason = this.recorder.partialReasonSoFar ?? (failed?.error ? `stream error on the controller: ${failed.error.message}` : null);
    this.channel.send({
      type: 'results',
      streams: mine,
      partial: reason !== null,
      reason,
      ...settingsForPartner(this.partnerCapabilities, this.settings.value),
      ...(this.plane?.cpu ? { cpu: this.plane.cpu } : {}),
    });
  }

  private fail(err: LonghaulError): void {
    if (this.lifecycle.reached('settled')) return;
    this.recorder.markPartial(err.message);
    this.recorder.addError(err.toJSON());
    this.channel?.destroy();
    const collecting = this.lifecycle.reached('running') && !this.lifecycle.reached('ended');
    collectThenFinish(collecting ? this.plane : null, () => this.finish());
  }

  /** The result, with the control channel's round trips in its delay. */
  private built(): LonghaulResult {
    const r = this.recorder.build();
    attachControlDelay(r, this.pinger?.figures() ?? null);
    return r;
  }

  private finish(): void {
    if (!this.lifecycle.advance('settled')) return;
    if (this.watchdog) clearTimeout(this.watchdog);
    this.pinger?.stop();
    this.plane?.destroy();
    if (this.startNs === null) this.recorder.markPartial('the run never started');
    const refresh = this.opts.link?.refresh;
    if (!refresh) {
      this.settle(this.built());
      return;
    }
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
}

/** Start a run; see `ControllerRun`. */
export function startRun(opts: ControllerOptions): ControllerRun {
  return new ControllerRun(opts);
}
