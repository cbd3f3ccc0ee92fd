/**
 * Sweeps from the UI: start, stop, resume, open, export; progress events
 * into `app.sweep`. The only module that talks to the API about sweeps.
 */
import type { SweepExportFormat } from '../../electron/contract/sweep-app.js';
import type { SweepPlan } from '../../electron/contract/sweep.js';
import { api } from './bridge/index.js';
import { errorText } from './bridge/ws-client.js';
import { deliverExport } from './save-export.js';
import { applyProgress, liveSweep } from './lib/sweep-live.js';
import { app, showSweep } from './state.svelte.js';

/** Start a sweep and show it; returns what went wrong, or null. */
export async function startSweep(plan: SweepPlan): Promise<string | null> {
  try {
    showSweep(liveSweep(await api.sweepStart({ plan })));
    return null;
  } catch (err) {
    return errorText(err);
  }
}

export async function resumeSweep(id: string): Promise<string | null> {
  try {
    showSweep(liveSweep(await api.sweepResume({ id })));
    return null;
  } catch (err) {
    return errorText(err);
  }
}

export async function stopSweep(): Promise<string | null> {
  const s = app.sweep;
  if (!s?.view.running) return null;
  try {
    await api.sweepStop({ id: s.view.id });
    return null;
  } catch (err) {
    return errorText(err);
  }
}

/** Show a stored (or the running) sweep on the Sweep screen. */
export async function openSweep(id: string): Promise<string | null> {
  try {
    showSweep(liveSweep(await api.sweepGet({ id })));
    return null;
  } catch (err) {
    return errorText(err);
  }
}

/** Export through the host: a save dialog (desktop) or a download (browser). Returns what to tell the user. */
export async function exportSweep(id: string, format: SweepExportFormat): Promise<string | null> {
  return deliverExport(await api.sweepExport({ id, format }));
}

let wired = false;

/** Subscribe once: progress of the sweep shown updates it; other sweeps' events are ignored. */
export function wireSweepEvents(): void {
  if (wired) return;
  wired = true;
  api.onSweepProgress(({ id, progress }) => {
    if (app.sweep?.view.id !== id) return;
    app.sweep = applyProgress(app.sweep, progress, Date.now());
  });
}
