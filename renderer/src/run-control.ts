/**
 * Runs from the UI: start, live samples into the series, stop, end → Results.
 * Subscribes once to the API's events (for the controller and the responder side).
 */
import { SESSION_PHASES } from '../../electron/contract/session-phases.js';
import type { ApiError, Events, LinkChoice, LiveSample, RunEnded, RunFailed, RunPhase, RunState, UiRunParams } from '../../electron/contract/api.js';
import type { LonghaulErrorCode } from '../../electron/contract/error-codes.js';
import { senderOf } from '../../electron/contract/stream-plan.js';
import { api } from './bridge/index.js';
import { errorText } from './bridge/ws-client.js';
import { GroupSeries } from './lib/group-series.js';
import { phaseName, type LivePhase } from './lib/run-phase-text.js';
import { startFailure } from './lib/start-failure.js';
import { formatRate } from '../../electron/contract/units.js';
import { rateText } from '../../electron/contract/partial-text.js';
import { app, beginRun, failStart, newLiveRun, partnerDefaultPort, showGroup, showResult, splitPartner, type GroupLive, type LiveRun } from './state.svelte.js';

/** The order a run goes through its phases: a group is as far as its slowest peer. */
const PHASE_ORDER: readonly RunPhase[] = SESSION_PHASES;

export async function startRun(
  params: UiRunParams,
  distanceMeters: number | null,
  link: LinkChoice,
  pathRateBitsPerSec: number | null = null,
  capacity = false,
): Promise<string | null> {
  const partner = splitPartner(app.partner, partnerDefaultPort());
  if (!partner) return 'the partner address is not HOST or HOST:PORT';
  // An iperf3 server speaks no Longhaul: the emulator's control hook has no one to talk to, so it goes direct.
  const kind = app.partnerKind;
  if (kind === 'iperf3') link = { kind: 'direct' };
  // The Run screen from the click: the host starts the link emulator (if any) before it answers, which
  // takes a moment; the run's id comes with the answer (PENDING until then).
  // Raw object: $state would proxy the series, and a chart must not read through proxies 10×/s.
  beginRun({ ...newLiveRun(PENDING, params, senderOf(params.direction, params.streams), link), partner: kind }, distanceMeters);
  if (app.run) setPhase(app.run, link.kind === 'proxy' ? 'link' : 'hello');
  try {
    const { runId } = await api.startRun({
      host: partner.host,
      port: partner.port,
      params,
      link,
      partner: kind,
      ...(pathRateBitsPerSec !== null ? { pathRateBitsPerSec } : {}),
      ...(distanceMeters !== null ? { distanceMeters } : {}),
      // The path's measurement is Longhaul's own run: an iperf3 server cannot take part.
      ...(capacity && kind !== 'iperf3' ? { capacity: true } : {}),
    });
    const run = app.run;
    if (run?.runId !== PENDING) return null;
    run.runId = runId;
    if (run.bypass) run.bypass.runId = runId;
    if (run.phase === 'link') setPhase(run, 'hello');
    // Stop pressed while the host was still setting up: stop now that the run has an id.
    if (run.stopping) void api.stopRun({ runId }).catch(() => undefined);
    replayEarly(runId);
    return null;
  } catch (err) {
    early.clear();
    const e = err as Partial<ApiError>;
    failedStart(typeof e?.code === 'string' ? e.code : 'LH_ERR_BAD_ARGUMENT', typeof e?.message === 'string' ? e.message : errorText(err));
    return null;
  }
}

/** A run still going when the page came back (a reload): the Run screen again, fed by its samples from now on. */
export function reattachRun(runId: string, s: Extract<RunState, { state: 'running' }>): void {
  beginRun({ ...newLiveRun(runId, s.params, senderOf(s.params.direction, s.params.streams), s.link), partner: s.partner }, s.distanceMeters);
  if (app.run && s.phase) setPhase(app.run, s.phase);
}

/** The run's id until the host answers the start (no event carries it). */
const PENDING = '';

/** Events of the run being started that came before the host's answer (its id), replayed once it is known. */
const early = new Map<string, (() => void)[]>();

/** Keep an event for the run being started, if that is what it may be for; true when kept. */
function keepEarly(runId: string, handle: () => void): boolean {
  if (app.run?.runId !== PENDING) return false;
  const list = early.get(runId) ?? [];
  // Bounded: before its id is known a run can only have said hello, failed, or ended.
  if (list.length < 64) list.push(handle);
  early.set(runId, list);
  return true;
}

function replayEarly(runId: string): void {
  const list = early.get(runId) ?? [];
  early.clear();
  for (const handle of list) handle();
}

/** Set a run's phase; a change of phase (not of its figures) is announced. */
function setPhase(run: LiveRun, phase: LivePhase): void {
  if (run.phase === phase && app.announcement) return;
  run.phase = phase;
  app.announcement = phaseName(phase, { partner: partnerName(), params: run.params });
}

/** The partner as the phase line names it. */
export function partnerName(): string {
  return app.loopback ? "this PC's own responder" : app.partner.trim() || 'the partner';
}

/** Back to the step that can fix a failed start, with the reason in words (lib/start-failure.ts). */
function failedStart(code: LonghaulErrorCode, message: string): void {
  failStart(startFailure(code, message, app.partner));
}

/** Start a group run with the partners ticked on the Pair screen (direct to each; the host checks them again). */
export async function startGroupRun(params: UiRunParams, distanceMeters: number | null, peers: { host: string; port: number }[]): Promise<string | null> {
  try {
    const { runId } = await api.startGroupRun({ peers, params });
    const run = newLiveRun(runId, params, senderOf(params.direction, params.streams));
    const series = (view: 'receiver' | 'sender') =>
      new GroupSeries({ view, direction: params.direction, senderOf: senderOf(params.direction, params.streams), peerCount: peers.length });
    const group: GroupLive = {
      peers,
      phases: peers.map(() => 'hello'),
      hostnames: peers.map(() => null),
      receiver: series('receiver'),
      sender: series('sender'),
    };
    beginRun({ ...run, group }, distanceMeters);
    return null;
  } catch (err) {
    return errorText(err);
  }
}

/** Switch the proxy's bypass; the state shown is the one the proxy confirmed. */
export async function setBypass(on: boolean): Promise<string | null> {
  const run = app.run;
  if (!run?.bypass) return 'this run does not go through the link proxy';
  try {
    run.bypass = await api.setBypass({ runId: run.runId, bypass: on });
    run.tick++;
    return null;
  } catch (err) {
    return errorText(err);
  }
}

export async function stopRun(): Promise<void> {
  if (!app.run || app.run.stopping) return;
  app.run.stopping = true;
  // Still being set up: startRun stops it as soon as the host gives its id.
  if (app.run.runId === PENDING) return;
  await api.stopRun({ runId: app.run.runId }).catch(() => undefined);
}

function onPhase(e: Events['onPhase']['payload']): void {
  const { runId, phase, peer, hostname } = e;
  const run = app.run;
  if (run?.runId !== runId) return void keepEarly(runId, () => onPhase(e));
  if (!run.group || peer === undefined) return setPhase(run, phase);
  run.group.phases[peer] = phase;
  if (hostname) run.group.hostnames[peer] = hostname;
  setPhase(
    run,
    run.group.phases.reduce((a, p) => (PHASE_ORDER.indexOf(p) < PHASE_ORDER.indexOf(a) ? p : a)),
  );
}

function onSample(s: LiveSample): void {
  const run = app.run;
  if (!run || run.runId !== s.runId) return void keepEarly(s.runId, () => onSample(s));
  if (run.group) {
    run.group.receiver.add(s);
    run.group.sender.add(s);
    run.tick++;
    return;
  }
  run.receiver.add(s);
  run.sender.add(s);
  run.tcp.add(s);
  run.tick++;
}

function onRunEnd(e: RunEnded): void {
  const { runId, result, savedPath, saveError } = e;
  if (app.run?.runId !== runId) return void keepEarly(runId, () => onRunEnd(e));
  if (saveError) app.run.error = `the result could not be stored in History: ${saveError}`;
  // The screen reader hears what the headline shows: a partial run's rate over the seconds measured, labelled.
  app.announcement = result.total.partialRate
    ? `Finished early: ${rateText(result.total)}.`
    : `Finished: ${formatRate(result.total.bitsPerSecond)} wall-clock aggregate${result.partial ? ' (partial result)' : ''}.`;
  showResult(result, savedPath);
}

function onRunFailed(e: RunFailed): void {
  if (app.run?.runId !== e.runId) return void keepEarly(e.runId, () => onRunFailed(e));
  failedStart(e.error.code, e.error.message);
}

let wired = false;

/** Subscribe to the host's events once, for the app's lifetime. */
export function wireEvents(): void {
  if (wired) return;
  wired = true;
  api.onPhase(onPhase);
  api.onSample(onSample);
  api.onRunEnd(onRunEnd);
  api.onRunFailed(onRunFailed);
  api.onGroupEnd(({ runId, group, savedPath, saveError }) => {
    if (app.run?.runId !== runId) return;
    if (saveError) app.run.error = `the group could not be stored in History: ${saveError}`;
    showGroup(group, savedPath);
  });
  api.onResponder((s) => {
    app.responder = s;
    if (s.state === 'running' && s.runId && app.responderRun?.runId !== s.runId) {
      // The params arrive with the first samples' stream ids; the responder sees both sides' samples. The last
      // run's result stays: it is hidden while this one runs and shown again if this one brings none (the
      // controller's path measurement after its run is no run of the user's and sends no result).
      app.responderRun = newLiveRun(s.runId, null, () => 'controller');
    }
  });
  api.onIperf3Server((s) => {
    app.iperf3Server = s;
    if (s.state === 'running' && s.runId && app.responderRun?.runId !== s.runId) {
      // An iperf3 client is the controller; this PC's samples come on the responder's channel.
      app.responderRun = newLiveRun(s.runId, null, () => 'controller');
    }
  });
  api.onResponderSample((s) => {
    const run = app.responderRun;
    if (!run || run.runId !== s.runId) return;
    run.receiver.add(s);
    run.tick++;
  });
  api.onResponderEnd(({ result }) => {
    app.responderResult = result;
  });
}
