/**
 * Runs from the UI: start, live samples into the series, stop, end → Results.
 * Subscribes once to the API's events (for the controller and the responder side).
 */
import type { LinkChoice, RunPhase, UiRunParams } from '../../electron/contract/api.js';
import { senderOf } from '../../electron/contract/stream-plan.js';
import { api } from './bridge/index.js';
import { errorText } from './bridge/ws-client.js';
import { GroupSeries } from './lib/group-series.js';
import { app, newLiveRun, partnerDefaultPort, splitPartner, type GroupLive } from './state.svelte.js';

/** The order a run goes through its phases: a group is as far as its slowest peer. */
const PHASE_ORDER: RunPhase[] = ['hello', 'params', 'streams', 'start', 'running', 'results', 'done', 'failed'];

/** Who sends stream `id`: the engine's own rule (contract/stream-plan.ts). */
export { senderOf };

export async function startRun(
  params: UiRunParams,
  distanceMeters: number | null,
  link: LinkChoice,
  pathRateBitsPerSec: number | null = null,
): Promise<string | null> {
  const partner = splitPartner(app.partner, partnerDefaultPort());
  if (!partner) return 'the partner address is not HOST or HOST:PORT';
  // An iperf3 server speaks no Longhaul: the emulator's control hook has no one to talk to, so it goes direct.
  const kind = app.partnerKind;
  if (kind === 'iperf3') link = { kind: 'direct' };
  app.result = null;
  app.group = null;
  app.distanceMeters = distanceMeters;
  try {
    const { runId } = await api.startRun({
      host: partner.host,
      port: partner.port,
      params,
      link,
      partner: kind,
      ...(pathRateBitsPerSec !== null ? { pathRateBitsPerSec } : {}),
    });
    // Raw object: $state would proxy the series, and a chart must not read through proxies 10×/s.
    app.run = { ...newLiveRun(runId, params, senderOf(params.direction, params.streams), link), partner: kind };
    app.screen = 'run';
    return null;
  } catch (err) {
    return errorText(err);
  }
}

/** Start a group run with the partners ticked on the Pair screen (direct to each; the host checks them again). */
export async function startGroupRun(params: UiRunParams, distanceMeters: number | null, peers: { host: string; port: number }[]): Promise<string | null> {
  app.result = null;
  app.group = null;
  app.distanceMeters = distanceMeters;
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
    app.run = { ...run, group };
    app.screen = 'run';
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
  await api.stopRun({ runId: app.run.runId }).catch(() => undefined);
}

let wired = false;

/** Subscribe to the host's events once, for the app's lifetime. */
export function wireEvents(): void {
  if (wired) return;
  wired = true;
  api.onPhase(({ runId, phase, peer, hostname }) => {
    const run = app.run;
    if (run?.runId !== runId) return;
    if (!run.group || peer === undefined) {
      run.phase = phase;
      return;
    }
    run.group.phases[peer] = phase;
    if (hostname) run.group.hostnames[peer] = hostname;
    run.phase = run.group.phases.reduce((a, p) => (PHASE_ORDER.indexOf(p) < PHASE_ORDER.indexOf(a) ? p : a));
  });
  api.onSample((s) => {
    const run = app.run;
    if (!run || run.runId !== s.runId) return;
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
  });
  api.onRunEnd(({ runId, result, savedPath, saveError }) => {
    if (app.run?.runId !== runId) return;
    app.group = null;
    app.result = result;
    app.resultSavedPath = savedPath;
    if (saveError) app.run.error = `the result could not be stored in History: ${saveError}`;
    app.screen = 'results';
  });
  api.onGroupEnd(({ runId, group, savedPath, saveError }) => {
    if (app.run?.runId !== runId) return;
    app.result = null;
    app.group = group;
    app.resultSavedPath = savedPath;
    if (saveError) app.run.error = `the group could not be stored in History: ${saveError}`;
    app.screen = 'results';
  });
  api.onResponder((s) => {
    app.responder = s;
    if (s.state === 'running' && s.runId && app.responderRun?.runId !== s.runId) {
      // The params arrive with the first samples' stream ids; the responder sees both sides' samples.
      app.responderRun = newLiveRun(s.runId, null, () => 'controller');
      app.responderResult = null;
    }
  });
  api.onIperf3Server((s) => {
    app.iperf3Server = s;
    if (s.state === 'running' && s.runId && app.responderRun?.runId !== s.runId) {
      // An iperf3 client is the controller; this PC's samples come on the responder's channel.
      app.responderRun = newLiveRun(s.runId, null, () => 'controller');
      app.responderResult = null;
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
