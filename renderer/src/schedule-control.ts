/**
 * Schedules from the UI: list, keep, pause, delete, and the host's updates into `app.schedules`;
 * a failed scheduled test or a changed verdict becomes a notice (shown on every screen until
 * dismissed) and, where the user allowed it, a system notification. The only module that talks to
 * the API about schedules.
 */
import type { MetricsSetting, ScheduleNotice, ScheduleListing } from '../../electron/contract/schedule-app.js';
import { VERDICT_WORDS } from '../../electron/contract/verdict-labels.js';
import { api } from './bridge/index.js';
import { app } from './state.svelte.js';

/** Notices kept on screen at most (the oldest go first). */
const MAX_NOTICES = 5;

export async function loadSchedules(): Promise<void> {
  app.schedules = await api.listSchedules(null);
}

/** Keep a plan (new when `editing` is null); the host's refusal is thrown (its message names the field). */
export async function saveSchedule(plan: object, editing: string | null): Promise<void> {
  app.schedules = await api.saveSchedule({ plan: plan as Record<string, unknown>, editing });
}

export async function pauseSchedule(name: string, paused: boolean): Promise<void> {
  app.schedules = await api.pauseSchedule({ name, paused });
}

export async function deleteSchedule(name: string): Promise<void> {
  app.schedules = await api.deleteSchedule({ name });
}

/** A notice in words: what happened, to which schedule and partner. */
export function noticeText(n: ScheduleNotice): string {
  if (n.kind === 'failed') return `Scheduled test "${n.name}" to ${n.peer} failed (${n.code ?? 'unknown error'})`;
  if (n.kind === 'not-saved')
    return `Scheduled test "${n.name}" to ${n.peer}: its result could not be saved (${n.saveError ?? 'unknown'}); free some space or check the data folder`;
  const words = (v: ScheduleNotice['now']): string => v.map((x) => VERDICT_WORDS[x]).join(' / ') || 'none';
  return `Scheduled test "${n.name}" to ${n.peer}: the limit changed from ${words(n.before)} to ${words(n.now)}`;
}

export function dismissNotice(n: ScheduleNotice): void {
  app.scheduleNotices = app.scheduleNotices.filter((x) => x !== n);
}

/** Ask the browser or the desktop for notifications (a user's click; never asked unprompted). */
export async function allowNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission === 'default' ? Notification.requestPermission() : Notification.permission;
}

function notify(n: ScheduleNotice): void {
  app.scheduleNotices = [...app.scheduleNotices, n].slice(-MAX_NOTICES);
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted')
    new Notification('Longhaul', { body: noticeText(n), tag: `${n.name}:${n.peer}` });
}

let wired = false;

/** Subscribe once: every update replaces the listing; a notice is told. */
export function wireScheduleEvents(): void {
  if (wired) return;
  wired = true;
  api.onSchedules(({ listing, notice }: { listing: ScheduleListing; notice: ScheduleNotice | null }) => {
    app.schedules = listing;
    if (notice) notify(notice);
  });
}

/** Keep the /metrics setting; the listing says where it serves now, or why not. */
export async function setScheduleMetrics(setting: MetricsSetting): Promise<void> {
  app.schedules = await api.setScheduleMetrics(setting);
}
