/**
 * Runs from the UI: start, live samples into the series, stop, end → Results.
 * Subscribes once to the API's events (for the controller and the responder side).
 */
import type { LinkChoice, UiRunParams } from '../../electron/contract/api.js';
import type { Direction } from '../../electron/contract/result.js';
import { api } from './bridge/index.js';
import { errorText } from './bridge/ws-client.js';
import { app, newLiveRun, splitPartner } from './state.svelte.js';

/** Who sends stream `id` (the engine's plan: forward/reverse N streams, bidir N each way). */
export function senderOf(direction: Direction, streams: number): (id: number) => 'controller' | 'responder' {
  return (id) => (direction === 'reverse' ? 'responder' : direction === 'bidir' && id >= streams ? 'responder' : 'controller');
}

export async function startRun(params: UiRunParams, distanceMeters: number | null, link: LinkChoice): Promise<string | null> {
  const partner = splitPartner(app.partner, app.system?.defaultPort ?? 5211);
  if (!partner) return 'the partner address is not HOST or HOST:PORT';
  app.result = null;
  app.distanceMeters = distanceMeters;
  try {
    const { runId } = await api.startRun({ host: partner.host, port: partner.port, params, link });
    // Raw object: $state would proxy the series, and a chart must not read through proxies 10×/s.
    app.run = newLiveRun(runId, params, senderOf(params.direction, params.streams), link);
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
  api.onPhase(({ runId, phase }) => {
    if (app.run?.runId === runId) app.run.phase = phase;
  });
  api.onSample((s) => {
    const run = app.run;
    if (!run || run.runId !== s.runId) return;
    run.receiver.add(s);
    run.sender.add(s);
    run.tcp.add(s);
    run.tick++;
  });
  api.onRunEnd(({ runId, result, savedPath, saveError }) => {
    if (app.run?.runId !== runId) return;
    app.result = result;
    app.resultSavedPath = savedPath;
    if (saveError) app.run.error = `the result could not be stored in History: ${saveError}`;
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
