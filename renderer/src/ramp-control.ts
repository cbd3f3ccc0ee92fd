/**
 * UDP ramps from the UI: start (from the Test step), stop, open, export; progress events into
 * `app.ramp`. The only module that talks to the API about ramps.
 */
import type { RampExportFormat, RampLink, RampTarget } from '../../electron/contract/udp-ramp-app.js';
import type { LinkChoice, UiRunParams } from '../../electron/contract/api.js';
import { api } from './bridge/index.js';
import { errorText } from './bridge/ws-client.js';
import { deliverExport } from './save-export.js';
import { app, partnerDefaultPort, showRamp, splitPartner } from './state.svelte.js';

/** Start a ramp against the Test step's partner (through the link when the Link step chose it); returns what went wrong, or null. */
export async function startRamp(params: UiRunParams, lossThreshold: number, link: LinkChoice): Promise<string | null> {
  const partner = splitPartner(app.partner, partnerDefaultPort());
  if (!partner) return 'the partner address is not HOST or HOST:PORT';
  const iperf3 = app.partnerKind === 'iperf3';
  const target: RampTarget = { kind: iperf3 ? 'iperf3' : 'peer', ...partner };
  // An iperf3 server speaks no Longhaul: the emulator's control hook has no one to talk to, so it goes direct.
  const rampLink: RampLink | null = !iperf3 && link.kind === 'proxy' ? { preset: link.preset, settings: link.settings } : null;
  try {
    showRamp(await api.rampStart({ target, params, lossThreshold, link: rampLink }));
    return null;
  } catch (err) {
    return errorText(err);
  }
}

export async function stopRamp(): Promise<string | null> {
  const r = app.ramp;
  if (!r?.running) return null;
  try {
    await api.rampStop({ id: r.id });
    return null;
  } catch (err) {
    return errorText(err);
  }
}

/** Show a stored (or the running) ramp on the Ramp screen. */
export async function openRamp(id: string): Promise<string | null> {
  try {
    showRamp(await api.rampGet({ id }));
    return null;
  } catch (err) {
    return errorText(err);
  }
}

/** Export through the host: a save dialog (desktop) or a download (browser). Returns what to tell the user. */
export async function exportRamp(id: string, format: RampExportFormat): Promise<string | null> {
  return deliverExport(await api.rampExport({ id, format }));
}

let wired = false;

/** Subscribe once: progress of the ramp shown replaces it; other ramps' events are ignored. */
export function wireRampEvents(): void {
  if (wired) return;
  wired = true;
  api.onRampProgress((view) => {
    if (app.ramp?.id !== view.id) return;
    app.ramp = view;
  });
}
