/**
 * One paired run on the responder's side: answers the controller's control messages in the order
 * of its run's states (responder-state.ts), takes the data connections that carry the right cookie,
 * runs its data plane and reports.
 */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import type { LonghaulResult } from '../../contract/result.js';
import type { CpuUse } from '../../contract/cpu-info.js';
import { checkDataHeader } from '../../protocol/data-header.js';
import type { Message, MessageOf, StreamEnd } from '../../protocol/messages.js';
import { DEFAULT_STATE_TIMEOUTS_MS, type SessionState } from '../../protocol/session-state.js';
import { LonghaulError, ProtocolError, describeError } from '../../util/errors.js';
import { SOFTWARE } from '../../util/version.js';
import type { SideSample } from '../data-plane/data-plane.js';
import { planStreams } from '../../contract/stream-plan.js';
import { RunRecorder } from './run-recorder.js';
import { LocalSettingsRead } from './local-settings.js';
import { NO_LISTENER, openRunListener, type RunListener, type RunListenerHooks } from './responder-listener.js';
import { lastSeqOf, udpAddress } from './udp-session.js';
import { runningTimeoutMs, windowInfo, localOs, collectThenFinish, STOP_FROM_RESPONDER, STOP_GRACE_MS } from './run-common.js';
import { paramsOverLimits, RunLimitGuard, streamCaps, type ResponderLimits } from './responder-limits.js';
import { partnerLabel } from '../../contract/partner-label.js';
import { forwardSamples, helloProblem, ownHello, resultsMessage, takeResults, type PartnerHello } from './peer-exchange.js';
import type { IncomingData, PlaneFactory, SessionChannel } from './session-channel.js';
import { sessionDataPlane } from './session-data-plane.js';
import { RESPONDER_MOVES, RESPONDER_PROTOCOL, RESPONDER_TAKES, type ResponderRun, type ResponderState, type ResponderStateAt } from './responder-state.js';
import { samePcOf } from './same-pc.js';

/** `tuneListener`/`tuneListenerMss`: set the shared listening socket's window and MSS before the data connections arrive (they inherit them); undone when they are in. */
interface ResponderSessionOptions extends RunListenerHooks {
  limits: ResponderLimits;
  timeoutsMs?: Partial<Record<SessionState, number>>;
  maxWorkersPerRole?: number;
  /** The data plane and the run's listener; a run spawns workers and listens, unit tests give fakes. */
  deps?: ResponderDeps;
}

interface ResponderDeps {
  plane: PlaneFactory;
  listener: typeof openRunListener;
}

const REAL: ResponderDeps = { plane: sessionDataPlane, listener: openRunListener };

interface ResponderSessionEvents {
  sample: [SideSample, 'controller' | 'responder'];
  /** The session is over; `result` is what was measured (null if no run began). */
  end: [LonghaulResult | null, LonghaulError | null];
  /** A connection to this run's own data listener was turned away: [peer, reason]. */
  rejected: [string, string];
}

export class ResponderSession extends EventEmitter<ResponderSessionEvents> {
  readonly channel: SessionChannel;
  private readonly opts: ResponderSessionOptions;
  private readonly deps: ResponderDeps;
  private state: ResponderState = { at: 'hello' };
  /** Whether the data plane was ever started (a result exists). */
  private started = false;

  constructor(channel: SessionChannel, opts: ResponderSessionOptions) {
    super();
    this.opts = opts;
    this.deps = opts.deps ?? REAL;
    this.channel = channel;
    channel.on('message', (m) => this.onMessage(m));
    channel.on('failure', (err) => this.onFailure(err));
  }

  /** Where the run stands (for tests). */
  get at(): ResponderState['at'] {
    return this.state.at;
  }

  /** How many data connections this session still waits for. */
  get expectedDataConnections(): number {
    const s = this.state;
    return s.at === 'streams' ? s.run.plan.length - s.intake.arrived.size : 0;
  }

  /** True while this session can still take data connections. */
  get wantsData(): boolean {
    return this.state.at === 'streams';
  }

  /**
   * A data connection arrived (on the shared port, or on this run's own listener). Take it if it
   * carries this run's cookie and an expected stream id; close it at once otherwise.
   */
  async acceptData(c: IncomingData, onSharedPort = true): Promise<void> {
    const s = this.state;
    if (s.at !== 'streams') return c.refuse();
    const own = s.run.listener.ownPort;
    if (onSharedPort && own !== null) {
      // This run's data goes to its own listener, whose window the results report: a data
      // connection on the shared port (a controller that ignored params-ok.dataPort) would
      // run with a window nobody set while the result said otherwise.
      this.emit('rejected', c.peer, `data connection on the control port: this run takes them on port ${own}`);
      return c.refuse();
    }
    const id = checkDataHeader(c.header, s.run.cookie);
    if (id === null || !s.run.plan.some((p) => p.id === id) || s.intake.arrived.has(id)) {
      if (!onSharedPort) this.emit('rejected', c.peer, 'data connection with a wrong cookie or stream id');
      return c.refuse();
    }
    s.intake.arrived.add(id);
    try {
      await s.run.plane.take(id, c);
    } catch (err) {
      return this.channel.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_WORKER', describeError(err).message));
    }
    s.intake.handedOver.add(id);
    // Every worker must hold its connection before the start: until then the engine may still
    // have its own copy open (and, for a Node wrapper, reading), which would take payload bytes.
    const now = this.state;
    if (now.at === 'streams' && now.intake.handedOver.size === now.run.plan.length) this.streamsReady(now);
  }

  private to(next: ResponderState): void {
    const from = this.state.at;
    if (from !== next.at && !RESPONDER_MOVES[from].includes(next.at)) throw new Error(`responder: no move ${from} -> ${next.at}`);
    this.state = next;
    const p = RESPONDER_PROTOCOL[next.at];
    if (p && this.channel.state !== p) this.channel.enter(p);
  }

  /** A message the channel let through (its protocol state takes it): handled by this state, or the session fails. */
  private onMessage(m: Message): void {
    const s = this.state;
    if (!RESPONDER_TAKES[s.at].includes(m.type)) {
      return this.channel.fail(
        new ProtocolError('LH_ERR_UNEXPECTED_MESSAGE', `${this.channel.partnerLabel} sent "${m.type}", unexpected while this responder is in "${s.at}"`),
      );
    }
    switch (m.type) {
      case 'hello':
        return s.at === 'hello' ? this.onHello(m) : undefined;
      case 'params':
        return s.at === 'params' ? this.onParams(s, m) : undefined;
      case 'start':
        return s.at === 'start' ? this.onStart(s) : undefined;
      case 'sample':
        if ('run' in s) s.run.recorder.addSample('controller', m);
        return void this.emit('sample', m, 'controller');
      case 'udp-end':
        return 'run' in s ? s.run.plane.peerSendersDone(m.lastSeq) : undefined;
      case 'stop':
        return s.at === 'streams' || s.at === 'start' || s.at === 'running' || s.at === 'drained' ? this.onStop(s, m) : undefined;
      case 'results':
        return s.at === 'reporting' ? this.onResults(s, m) : undefined;
      default:
        return;
    }
  }

  private onHello(m: MessageOf<'hello'>): void {
    const problem = helloProblem(m, 'responder', false, this.controllerName(m));
    if (problem) return this.channel.fail(problem);
    this.channel.send(ownHello());
    this.to({ at: 'params', partner: m });
  }

  private onParams(s: ResponderStateAt<'params'>, m: MessageOf<'params'>): void {
    const p = m.params;
    const problems = paramsOverLimits(p, this.opts.limits);
    if (problems.length) return this.channel.fail(new LonghaulError('LH_ERR_PARAMS_REJECTED', `run refused: ${problems.join('; ')}`));
    const plan = planStreams(p);
    let listener: RunListener = NO_LISTENER;
    if (p.protocol !== 'udp') {
      try {
        listener = this.deps.listener(p, plan.length, { local: this.channel.localAddress, peer: this.channel.remoteAddress }, this.opts);
      } catch (err) {
        return this.channel.fail(err as LonghaulError);
      }
      listener.listen(
        (c) => void this.acceptData(c, false),
        (peer, reason) => this.emit('rejected', peer, reason),
      );
    }
    const plane = this.deps.plane({
      params: p,
      plan,
      side: 'responder',
      partner: this.controllerName(s.partner),
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      samePc: samePcOf(this.channel.remoteAddress),
      listenerWindow: listener.window,
      listenerMss: listener.mssSetup,
      caps: streamCaps(plan, this.opts.limits),
    });
    const settings = new LocalSettingsRead();
    const recorder = new RunRecorder(
      {
        id: m.cookie.slice(0, 16),
        software: SOFTWARE,
        writtenBy: 'responder',
        controller: {
          hostname: s.partner.hostname,
          address: this.channel.remoteAddress,
          software: s.partner.software,
          ...(s.partner.os ? { os: s.partner.os } : {}),
        },
        responder: { hostname: os.hostname(), address: 'local', software: SOFTWARE, os: localOs() },
        params: p,
        window: windowInfo(p.windowBytes),
        startedAt: new Date(),
        localSettings: () => settings.value,
      },
      plan,
    );
    const run: ResponderRun = { params: p, plan, cookie: m.cookie, plane, recorder, settings, listener };
    forwardSamples(plane, 'responder', {
      recorder: () => recorder,
      channel: this.channel,
      show: (x, side) => this.emit('sample', x, side),
      also: (x) => this.guarding()?.onSample(x.streams),
    });
    plane.on('limit', (id, _bytes, capBytes) => this.guarding()?.onCap(plan.length, id, capBytes));
    plane.on('error', (err) => {
      if (!this.started) this.channel.fail(err);
    });
    plane.on('done', (ends) => this.onOwnEnds(ends, plane.cpu));
    if (p.protocol === 'udp') {
      this.to({ ...s, at: 'binding', run });
      return void this.bindUdp(run);
    }
    this.channel.send({ type: 'params-ok', ...(listener.ownPort !== null ? { dataPort: listener.ownPort } : {}) });
    this.to({ ...s, at: 'streams', run, intake: { arrived: new Set(), handedOver: new Set() } });
  }

  /** The limit guard of a run whose data flows and whose stop has not come; undefined in any other state. */
  private guarding(): RunLimitGuard | undefined {
    const s = this.state;
    return s.at === 'running' || s.at === 'drained' ? s.guard : undefined;
  }

  /** UDP: bind this side's sockets, say their ports; streams-ready once each of our senders heard its receiver (udp-session.ts). */
  private async bindUdp(run: ResponderRun): Promise<void> {
    run.plane.on('sendersDone', (ends) => this.channel.send({ type: 'udp-end', lastSeq: lastSeqOf(ends) }));
    try {
      const { ports, connected } = await run.plane.bindUdp(udpAddress(this.channel.localAddress), run.cookie);
      const s = this.state;
      if (s.at !== 'binding') return;
      this.channel.send({ type: 'params-ok', udpPorts: ports });
      this.to({ ...s, at: 'streams', intake: { arrived: new Set(), handedOver: new Set() } });
      await connected;
      const now = this.state;
      if (now.at === 'streams') this.streamsReady(now);
    } catch (err) {
      this.channel.fail(err instanceof LonghaulError ? err : new LonghaulError('LH_ERR_DATA_STREAM', describeError(err).message));
    }
  }

  /** This run's streams are all set up (TCP: every connection handed over; UDP: bound, and each sender heard its receiver). */
  private streamsReady(s: ResponderStateAt<'streams'>): void {
    this.closeListener(s.run);
    this.channel.send({ type: 'streams-ready' });
    const { intake: _intake, ...accepted } = s;
    this.to({ ...accepted, at: 'start' });
  }

  private onStart(s: ResponderStateAt<'start'>): void {
    this.channel.setTimeout('running', runningTimeoutMs(s.run.params.intervalSeconds));
    this.startPlane(s);
    const controller = this.controllerName(s.partner);
    const noAnswer = (reason: string): void => this.channel.fail(new LonghaulError('LH_ERR_RESPONDER_LIMIT', `${reason}; ${controller} did not stop`));
    const guard = new RunLimitGuard(this.opts.limits, s.run.params, controller, (reason) => this.endAtLimit(reason), noAnswer);
    this.to({ ...s, at: 'running', guard, limitReason: null });
    this.channel.send({ type: 'started' });
  }

  private startPlane(s: ResponderStateAt<'start'>): void {
    this.started = true;
    s.run.plane.start(process.hrtime.bigint());
  }

  /**
   * A limit of this responder ended the run: ask the controller to stop, and stop reading and close
   * the data connections ourselves, whatever it does (responder-limits.ts); keep what was measured.
   * A controller too old to take a stop from its responder gets the reason as an error instead.
   */
  private endAtLimit(reason: string): void {
    const s = this.state;
    if ((s.at !== 'running' && s.at !== 'drained') || s.limitReason) return;
    this.to({ ...s, limitReason: reason });
    s.run.recorder.markPartial(reason);
    s.run.recorder.addError({ code: 'LH_ERR_RESPONDER_LIMIT', message: reason });
    this.emit('rejected', this.channel.remoteAddress, reason);
    s.run.plane.cut();
    if (!s.partner.capabilities.includes(STOP_FROM_RESPONDER)) return this.channel.fail(new LonghaulError('LH_ERR_RESPONDER_LIMIT', reason));
    this.channel.send({ type: 'stop', reason: 'error', message: reason, code: 'LH_ERR_RESPONDER_LIMIT' });
  }

  private onStop(s: ResponderStateAt<'streams' | 'start' | 'running' | 'drained'>, m: MessageOf<'stop'>): void {
    const ownLimit = s.at === 'running' || s.at === 'drained' ? s.limitReason : null;
    if (s.at === 'running' || s.at === 'drained') s.guard.dispose();
    // Our own limit ended it: the controller's stop only answers ours.
    const stopReason =
      ownLimit ??
      (m.reason === 'complete' ? null : m.reason === 'user' ? 'stopped by the user' : `stopped by ${this.controllerName(s.partner)}: ${m.message ?? 'error'}`);
    if (!ownLimit && stopReason) s.run.recorder.markPartial(stopReason);
    // Stopped before the data connections were all up: nothing ran.
    if (s.at === 'streams') return this.finish(new LonghaulError('LH_ERR_STOPPED', `${this.controllerName(s.partner)} stopped the run before it started`));
    if (s.at === 'start') this.startPlane(s);
    // A cut (the controller measured enough): what is still in flight is dropped, not drained for minutes.
    if (m.cut) s.run.plane.cut();
    else s.run.plane.stop(STOP_GRACE_MS);
    // Until our own streams have drained (minutes, on a slow link) the controller has nothing
    // to say: no read timeout then. The workers' idle watchdog bounds the wait instead.
    this.channel.setTimeout('results', 0);
    const ending = { partner: s.partner, run: s.run, stopReason };
    if (s.at === 'drained') return this.sendResults({ ...ending, at: 'stopped' });
    this.to({ ...ending, at: 'stopped' });
  }

  /** This side's streams are over. */
  private onOwnEnds(ends: StreamEnd[], cpu: CpuUse | null): void {
    const s = this.state;
    if (!('run' in s)) return;
    s.run.recorder.setEnds('responder', ends);
    s.run.recorder.setCpu('responder', cpu);
    if (s.at === 'running') return this.to({ ...s, at: 'drained' });
    if (s.at === 'stopped') return this.sendResults(s);
  }

  /** The stop heard and our own streams over: our ends to the controller. */
  private sendResults(s: ResponderStateAt<'stopped'>): void {
    const { run } = s;
    this.channel.send(resultsMessage('responder', run.recorder.endsOf('responder'), s.stopReason, s.partner, run.settings.value, run.plane.cpu));
    this.channel.setTimeout('results', this.opts.timeoutsMs?.results ?? DEFAULT_STATE_TIMEOUTS_MS.results);
    this.to({ ...s, at: 'reporting' });
  }

  private onResults(s: ResponderStateAt<'reporting'>, m: MessageOf<'results'>): void {
    takeResults(s.run.recorder, 'controller', m, '');
    this.channel.enter('done');
    this.channel.send({ type: 'done' });
    this.channel.close();
    this.finish(null);
  }

  private onFailure(err: LonghaulError): void {
    const s = this.state;
    if (s.at === 'settled' || s.at === 'collecting') return;
    if (!('run' in s)) return this.finish(err);
    s.run.recorder.markPartial(err.message);
    s.run.recorder.addError(err.toJSON());
    if (s.at === 'running' || s.at === 'drained') s.guard.dispose();
    const flowing = s.at === 'running' || s.at === 'stopped';
    if (!flowing) return this.finish(err);
    // Keep what this side's workers measured: wait for their ends (bounded), then finish.
    this.to({ at: 'collecting', run: s.run });
    collectThenFinish(s.run.plane, () => this.finish(err));
  }

  /** The controller as messages name it. */
  private controllerName(partner: PartnerHello): string {
    return partnerLabel('controller', { hostname: partner.hostname, address: this.channel.remoteAddress });
  }

  /** Give the shared listener its own buffers back and close the run's own (idempotent); a failure is recorded, not fatal. */
  private closeListener(run: ResponderRun): void {
    for (const problem of run.listener.close()) run.recorder.addError({ code: 'LH_ERR_IO', message: problem });
  }

  private finish(err: LonghaulError | null): void {
    const s = this.state;
    if (s.at === 'settled') return;
    let result: LonghaulResult | null = null;
    if ('run' in s) {
      if ('guard' in s) s.guard.dispose();
      this.closeListener(s.run);
      result = this.started ? s.run.recorder.build() : null;
      s.run.plane.destroy();
    }
    this.to({ at: 'settled' });
    if (err) this.channel.destroy();
    this.emit('end', result, err);
  }
}
