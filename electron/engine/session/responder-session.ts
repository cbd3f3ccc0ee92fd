/**
 * One paired run on the responder's side: answers the controller's control
 * messages in the order of the session state machine, adopts the data
 * connections that carry the right cookie, runs its data plane and reports.
 */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type net from 'node:net';
import type { LonghaulResult } from '../../contract/result.js';
import { checkDataHeader } from '../../protocol/data-header.js';
import { ControlChannel } from '../../protocol/control-channel.js';
import { PROTOCOL_VERSION, type Message, type MessageOf } from '../../protocol/messages.js';
import { DEFAULT_STATE_TIMEOUTS_MS, type SessionState } from '../../protocol/session-state.js';
import { LonghaulError, describeError } from '../../util/errors.js';
import { SOFTWARE } from '../../util/version.js';
import { DataPlane, type SideSample } from '../data-plane/data-plane.js';
import { planStreams, type PlannedStream, type RunParams } from './params.js';
import { RunRecorder } from './run-recorder.js';
import { settingsForPartner } from './partner-settings.js';
import { LocalSettingsRead } from './local-settings.js';
import { nativeSockets } from '../../native/load-native.js';
import type { OwnedConnection } from '../data-plane/windows-owned-listener.js';
import { openRunListener, type RunListener, type RunListenerHooks } from './responder-listener.js';
import { lastSeqOf, peerSendersDone, responderUdpSetup, udpAddress } from './udp-session.js';
import { runningTimeoutMs, windowInfo, localOs, collectThenFinish, sampleMessage, CAPABILITIES, STOP_FROM_RESPONDER, STOP_GRACE_MS } from './run-common.js';
import { ResponderLifecycle } from './run-lifecycle.js';
import { paramsOverLimits, RunLimitGuard, streamCaps, type ResponderLimits } from './responder-limits.js';
import { present } from '../../contract/present.js';

export { DEFAULT_RESPONDER_LIMITS, type ResponderLimits } from './responder-limits.js';

/** `tuneListener`/`tuneListenerMss`: set the shared listening socket's window and MSS before the data connections arrive (they inherit them); undone when they are in. */
interface ResponderSessionOptions extends RunListenerHooks {
  limits: ResponderLimits;
  timeoutsMs?: Partial<Record<SessionState, number>>;
  maxWorkersPerRole?: number;
}

interface ResponderSessionEvents {
  sample: [SideSample, 'controller' | 'responder'];
  /** The session is over; `result` is what was measured (null if no run began). */
  end: [LonghaulResult | null, LonghaulError | null];
  /** A connection to this run's own data listener was turned away: [peer, reason]. */
  rejected: [string, string];
}

export class ResponderSession extends EventEmitter<ResponderSessionEvents> {
  readonly channel: ControlChannel;
  private readonly opts: ResponderSessionOptions;
  private peerHello: MessageOf<'hello'> | null = null;
  private cookie = '';
  private params: RunParams | null = null;
  private plan: PlannedStream[] = [];
  private plane: DataPlane | null = null;
  private recorder: RunRecorder | null = null;
  /** This PC's TCP settings, read from the run's start: for the advice and for the controller. */
  private settings: LocalSettingsRead | null = null;
  /** Stream ids whose connection arrived (claimed at once, so a duplicate is refused). */
  private readonly adopted = new Set<number>();
  /** Stream ids whose worker has taken the connection: streams-ready waits for all of these. */
  private readonly handedOver = new Set<number>();
  /** Where this run's TCP data connections arrive (responder-listener.ts); null before params and for UDP. */
  private listener: RunListener | null = null;
  private readonly lifecycle = new ResponderLifecycle();
  /** The deadline and byte budget of the running run. */
  private guard: RunLimitGuard | null = null;
  /** Why a limit of this responder ended the run (null while none did). */
  private limitReason: string | null = null;
  private stopReason: string | null = null;

  constructor(socket: net.Socket, firstBytes: Buffer, opts: ResponderSessionOptions) {
    super();
    this.opts = opts;
    this.channel = new ControlChannel(socket, { role: 'responder', timeoutsMs: opts.timeoutsMs }, firstBytes);
    this.channel.on('message', (m) => this.onMessage(m));
    this.channel.on('failure', (err) => this.onFailure(err));
  }

  /** How many data connections this session still waits for. */
  get expectedDataConnections(): number {
    return this.wantsData ? this.plan.length - this.adopted.size : 0;
  }

  /** True while this session can still take data connections. */
  get wantsData(): boolean {
    return this.channel.state === 'streams';
  }

  /**
   * A data connection arrived on the shared port. Adopt it if it carries this
   * run's cookie and an expected stream id; close it at once otherwise.
   */
  async acceptData(socket: net.Socket, header: Buffer, handle: unknown): Promise<void> {
    const owned = this.listener?.owned;
    if (owned) {
      // This run's data goes to its own listener, whose window the results report: a data
      // connection on the shared port (a controller that ignored params-ok.dataPort) would
      // run with a window nobody set while the result said otherwise.
      this.emit('rejected', `${socket.remoteAddress}:${socket.remotePort}`, `data connection on the control port: this run takes them on port ${owned.port}`);
      socket.destroy();
      return;
    }
    const id = this.wantsData ? checkDataHeader(header, this.cookie) : null;
    if (id === null || !this.plan.some((s) => s.id === id) || this.adopted.has(id) || !this.plane) {
      socket.destroy();
      return;
    }
    this.adopted.add(id);
    try {
      await this.plane.adopt(id, handle);
    } catch (err) {
      socket.destroy();
      this.channel.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_WORKER', describeError(err).message));
      return;
    }
    socket.destroy(); // the worker holds its own duplicate of the descriptor now
    this.handedOver.add(id);
    this.maybeStreamsReady();
  }

  /** A data connection arrived on this run's owned listener (address already checked there). */
  private async acceptOwned(c: OwnedConnection): Promise<void> {
    const id = this.wantsData ? checkDataHeader(c.header, this.cookie) : null;
    if (id === null || !this.plan.some((s) => s.id === id) || this.adopted.has(id) || !this.plane) {
      nativeSockets().api?.closeFd(c.fd);
      this.emit('rejected', `${c.address}:${c.port}`, 'data connection with a wrong cookie or stream id');
      return;
    }
    this.adopted.add(id);
    try {
      await this.plane.adoptOwned(id, c.fd);
    } catch (err) {
      this.channel.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_WORKER', describeError(err).message));
      return;
    }
    this.handedOver.add(id);
    this.maybeStreamsReady();
  }

  /** Every data connection is in: tell the controller, and take no more. */
  private maybeStreamsReady(): void {
    // Every worker must hold its connection before the start: until then the engine may still
    // have its own copy open (and, for a Node wrapper, reading), which would take payload bytes.
    if (this.handedOver.size === this.plan.length) this.streamsReady();
  }

  /** This run's streams are all set up (TCP: every connection handed over; UDP: bound, and each sender heard its receiver). */
  private streamsReady(): void {
    if (this.channel.state !== 'streams') return;
    this.restoreListener();
    void this.listener?.owned?.close();
    this.channel.send({ type: 'streams-ready' });
    this.channel.enter('start');
  }

  private onMessage(m: Message): void {
    switch (m.type) {
      case 'hello':
        return this.onHello(m);
      case 'params':
        return this.onParams(m);
      case 'start':
        return this.onStart();
      case 'sample':
        this.recorder?.addSample('controller', m);
        this.emit('sample', m, 'controller');
        return;
      case 'stop':
        return this.onStop(m);
      case 'results':
        return this.onResults(m);
      case 'udp-end':
        if (this.plane) peerSendersDone(this.plane, m.lastSeq);
        return;
      default:
        return;
    }
  }

  private onHello(m: MessageOf<'hello'>): void {
    if (m.protocol !== PROTOCOL_VERSION) {
      return this.channel.fail(
        new LonghaulError(
          'LH_ERR_PROTOCOL_VERSION',
          `this responder speaks protocol ${PROTOCOL_VERSION}; the controller speaks ${m.protocol}: install the same Longhaul version on both PCs`,
        ),
      );
    }
    this.peerHello = m;
    this.channel.send({ type: 'hello', protocol: PROTOCOL_VERSION, software: SOFTWARE, hostname: os.hostname(), capabilities: CAPABILITIES, os: localOs() });
    this.channel.enter('params');
  }

  private onParams(m: MessageOf<'params'>): void {
    const p = m.params;
    const problems = paramsOverLimits(p, this.opts.limits);
    if (problems.length) {
      return this.channel.fail(new LonghaulError('LH_ERR_PARAMS_REJECTED', `run refused: ${problems.join('; ')}`));
    }
    this.cookie = m.cookie;
    this.params = p;
    this.plan = planStreams(p);
    if (p.protocol !== 'udp') {
      try {
        this.listener = openRunListener(p, this.plan.length, { local: this.channel.localAddress, peer: this.channel.remoteAddress }, this.opts);
      } catch (err) {
        return this.channel.fail(err as LonghaulError);
      }
      this.listener.owned?.on('connection', (c) => void this.acceptOwned(c));
      this.listener.owned?.on('rejected', (peer, reason) => this.emit('rejected', peer, reason));
    }
    const t = this.listener?.tuning;
    const listenerWindow = t ? { applied: t.applied, reason: t.applied ? null : t.reason, window: t.applied ? t.window : null } : undefined;
    this.plane = new DataPlane({
      params: p,
      plan: this.plan,
      side: 'responder',
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      listenerWindow,
      listenerMss: this.listener?.mssSetup ?? null,
      caps: streamCaps(this.plan, this.opts.limits),
    });
    const settings = (this.settings = new LocalSettingsRead());
    this.recorder = new RunRecorder(
      {
        id: m.cookie.slice(0, 16),
        software: SOFTWARE,
        writtenBy: 'responder',
        controller: {
          hostname: this.peerHello?.hostname ?? 'unknown',
          address: this.channel.remoteAddress,
          software: this.peerHello?.software ?? 'unknown',
          ...(this.peerHello?.os ? { os: this.peerHello.os } : {}),
        },
        responder: { hostname: os.hostname(), address: 'local', software: SOFTWARE, os: localOs() },
        params: p,
        window: windowInfo(p.windowBytes),
        startedAt: new Date(),
        localSettings: () => settings.value,
      },
      this.plan,
    );
    this.plane.on('sample', (s) => {
      this.recorder?.addSample('responder', s);
      this.guard?.onSample(s.streams);
      this.channel.send(sampleMessage(s));
      this.emit('sample', s, 'responder');
    });
    this.plane.on('limit', (id, _bytes, capBytes) => this.guard?.onCap(this.plan.length, id, capBytes));
    this.plane.on('error', (err) => {
      if (!this.lifecycle.started) this.channel.fail(err);
    });
    this.plane.on('done', (ends) => {
      this.recorder?.setEnds('responder', ends);
      this.recorder?.setCpu('responder', this.plane?.cpu);
      if (this.lifecycle.ownEnds()) this.sendResults();
    });
    if (p.protocol === 'udp') return void this.udpParamsOk(this.plane);
    this.channel.send({ type: 'params-ok', ...(this.listener?.owned ? { dataPort: this.listener.owned.port } : {}) });
    this.channel.enter('streams');
  }

  /** UDP: bind this side's sockets, say their ports; streams-ready once each of our senders heard its receiver (udp-session.ts). */
  private async udpParamsOk(plane: DataPlane): Promise<void> {
    plane.on('sendersDone', (ends) => this.channel.send({ type: 'udp-end', lastSeq: lastSeqOf(ends) }));
    try {
      const { ports, connected } = await responderUdpSetup(plane, this.plan, udpAddress(this.channel.localAddress), this.cookie);
      if (this.lifecycle.settled || this.channel.state !== 'params') return;
      this.channel.send({ type: 'params-ok', udpPorts: ports });
      this.channel.enter('streams');
      await connected;
      this.streamsReady();
    } catch (err) {
      this.channel.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_DATA_STREAM', describeError(err).message));
    }
  }

  private onStart(): void {
    const params = present(this.params, 'the run parameters (start comes after params)');
    this.channel.setTimeout('running', runningTimeoutMs(params.intervalSeconds));
    this.lifecycle.start();
    present(this.plane, 'the data plane').start(process.hrtime.bigint());
    const noAnswer = (reason: string): void => this.channel.fail(new LonghaulError('LH_ERR_RESPONDER_LIMIT', `${reason}; the controller did not stop`));
    this.guard = new RunLimitGuard(this.opts.limits, params, (reason) => this.endAtLimit(reason), noAnswer);
    this.channel.send({ type: 'started' });
    this.channel.enter('running');
  }

  /**
   * A limit of this responder ended the run: ask the controller to stop, and stop reading and close
   * the data connections ourselves, whatever it does (responder-limits.ts); keep what was measured.
   * A controller too old to take a stop from its responder gets the reason as an error instead.
   */
  private endAtLimit(reason: string): void {
    if (!this.lifecycle.awaitingStop || this.limitReason) return;
    this.limitReason = reason;
    this.stopReason = reason;
    this.recorder?.markPartial(reason);
    this.recorder?.addError({ code: 'LH_ERR_RESPONDER_LIMIT', message: reason });
    this.emit('rejected', this.channel.remoteAddress, reason);
    if (!this.peerHello?.capabilities.includes(STOP_FROM_RESPONDER)) {
      this.plane?.cut();
      return this.channel.fail(new LonghaulError('LH_ERR_RESPONDER_LIMIT', reason));
    }
    this.channel.send({ type: 'stop', reason: 'error', message: reason, code: 'LH_ERR_RESPONDER_LIMIT' });
    this.plane?.cut();
  }

  private onStop(m: MessageOf<'stop'>): void {
    this.guard?.dispose();
    if (this.limitReason) {
      // Our own limit ended it; the controller's stop only answers ours.
    } else if (m.reason !== 'complete') {
      this.stopReason = m.reason === 'user' ? 'stopped by the user' : `stopped by the controller: ${m.message ?? 'error'}`;
      this.recorder?.markPartial(this.stopReason);
    }
    if (this.channel.state === 'streams') {
      // Stopped before the data connections were all up: nothing ran.
      return this.finish(new LonghaulError('LH_ERR_STOPPED', 'the controller stopped the run before it started'));
    }
    const plane = present(this.plane, 'the data plane (a stop after streams)');
    if (this.channel.state === 'start' && this.lifecycle.start()) plane.start(process.hrtime.bigint());
    // A cut (the controller measured enough): what is still in flight is dropped, not drained for minutes.
    if (m.cut) plane.cut();
    else plane.stop(STOP_GRACE_MS);
    // Until our own streams have drained (minutes, on a slow link) the controller has nothing
    // to say: no read timeout then. The workers' idle watchdog bounds the wait instead.
    this.channel.setTimeout('results', 0);
    this.channel.enter('results');
    if (this.lifecycle.stopReceived()) this.sendResults();
  }

  /** The stop heard and our own streams over: our ends to the controller. */
  private sendResults(): void {
    const mine = present(this.recorder, 'the run recorder (made with the data plane)').endsOf('responder');
    const failed = mine.find((e) => e.error);
    const reason = this.stopReason ?? (failed?.error ? `stream error on the responder: ${failed.error.message}` : null);
    this.channel.send({
      type: 'results',
      streams: mine,
      partial: reason !== null,
      reason,
      ...settingsForPartner(this.peerHello?.capabilities, this.settings?.value ?? null),
      ...(this.plane?.cpu ? { cpu: this.plane.cpu } : {}),
    });
    this.channel.setTimeout('results', this.opts.timeoutsMs?.results ?? DEFAULT_STATE_TIMEOUTS_MS.results);
  }

  private onResults(m: MessageOf<'results'>): void {
    this.recorder?.setEnds('controller', m.streams);
    this.recorder?.setPeerSettings('controller', m.settings);
    this.recorder?.setCpu('controller', m.cpu);
    if (m.partial && m.reason) this.recorder?.markPartial(m.reason);
    this.channel.enter('done');
    this.channel.send({ type: 'done' });
    this.channel.close();
    this.finish(null);
  }

  private onFailure(err: LonghaulError): void {
    this.recorder?.markPartial(err.message);
    this.recorder?.addError(err.toJSON());
    collectThenFinish(this.lifecycle.hasOwnEnds ? null : this.plane, () => this.finish(err));
  }

  /** Give the shared listener its own buffers back (idempotent); a failure is recorded, not fatal. */
  private restoreListener(): void {
    for (const problem of [this.listener?.tuning?.restore() ?? null, this.listener?.mss?.restore() ?? null]) {
      if (problem) this.recorder?.addError({ code: 'LH_ERR_IO', message: problem });
    }
  }

  private finish(err: LonghaulError | null): void {
    if (!this.lifecycle.settle()) return;
    this.guard?.dispose();
    this.restoreListener();
    void this.listener?.owned?.close();
    const result = this.recorder && this.lifecycle.started ? this.recorder.build() : null;
    this.plane?.destroy();
    if (err) this.channel.destroy();
    this.emit('end', result, err);
  }
}
