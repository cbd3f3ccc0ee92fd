/**
 * Advice for runs through the link emulator (`longhaul loopback --link …`).
 * There the kernels only see the fast local hop; the emulator stands for the
 * path. So: when the emulator itself fell behind (`emulator-limited`), or the
 * emulated link's rate or modelled loss held the run, the thing to change is
 * the emulator or the link it models, not an OS setting, and the advice says
 * that. When the emulated window held it, the advice names that setting and
 * then (advise.ts) the OS settings the ends would need on a real path of the
 * same RTT and rate.
 */
import { formatRateShort, groupDigits } from '../../contract/units.js';
import type { Diagnosis } from '../../contract/result.js';
import type { LinkInfo, LinkSettingsInfo } from '../../contract/link-info.js';
import type { AdviceLine } from './os-rules.js';

/** Prefix of every OS line's reason on an emulated run: the OS settings matter on the real path. */
export const REAL_PATH = 'On a real path of this RTT and rate (the emulator stood for one here): ';

function rateText(bps: number | null): string {
  return bps === null ? 'not limited' : formatRateShort(bps);
}

/**
 * The loopback command that models this same link with one thing changed: every setting the run's link had
 * (delay, jitter, rate, window, slow start, loss and its pattern) except the `changed` one (null: all), then `change`.
 * The emulated MSS has no flag, so a --link-config link's own MSS is not carried.
 */
export function linkCommand(s: LinkSettingsInfo, changed: 'rate' | 'loss' | 'window' | null, change: string): string {
  const flags = [`--delay ${s.delayMs}ms`];
  if (s.jitterMs > 0) flags.push(`--jitter ${s.jitterMs}ms`);
  if (s.rateBitsPerSec !== null && changed !== 'rate') flags.push(`--rate ${s.rateBitsPerSec}`);
  if (s.windowBytes !== null && changed !== 'window') flags.push(`--window ${s.windowBytes}`);
  if (s.slowstart) flags.push('--slowstart');
  if (s.lossRatio > 0 && changed !== 'loss') flags.push(`--loss ${s.lossRatio}`);
  if (s.lossRatio > 0 && s.lossPattern === 'periodic') flags.push('--loss-pattern periodic');
  return ['longhaul loopback', ...flags, change].join(' ');
}

function emulatorLine(link: LinkInfo): AdviceLine {
  const w = link.emulatorWatch;
  const relay = !w ? 'unknown' : w.relay === 'native' ? 'native relay thread' : `JavaScript relay (${w.relayReason ?? 'no native relay'})`;
  const cpu = w?.cpuSeconds != null ? `; ${w.cpuSeconds.toFixed(1)} s of CPU on ${w.cores ?? 'unknown'} cores` : '';
  return {
    setting: 'the link emulator on this PC (its relay and the CPU it gets)',
    currentValue: `${relay}${cpu}`,
    neededValue: 'an emulator that keeps its own schedule: a lower emulated rate, fewer streams, or a PC with CPU to spare',
    how: 'close what else runs on this PC; lower --rate or -P; or run the emulator (longhaul proxy) on a PC of its own between the two ends',
    why: 'The emulator fell behind its own schedule: it, not any TCP or OS setting on either end, held this run. No OS setting changes that.',
    control: { kind: 'emulator' },
  };
}

function rateLine(s: LinkSettingsInfo): AdviceLine {
  return {
    setting: "the emulated link's rate (--rate, or the --link preset's)",
    currentValue: rateText(s.rateBitsPerSec),
    neededValue: 'nothing to change on either PC: the run carried what the emulated link allows',
    how: `to model a faster path: ${linkCommand(s, 'rate', '--rate <rate>')}`,
    longhaulCommand: linkCommand(s, 'rate', '--rate <rate>'),
    why: "The emulated link's rate, the path being modelled, was the limit, not an OS setting: on a real path this is the line's own rate.",
    control: { kind: 'link', field: 'rate', bytes: null },
  };
}

function lossLine(s: LinkSettingsInfo): AdviceLine {
  return {
    setting: "the emulated link's modelled loss (--loss, or the --link preset's)",
    currentValue: `${(s.lossRatio * 100).toLocaleString('en-US', { maximumFractionDigits: 3 })} % of segments`,
    neededValue: 'nothing to change on either PC: the modelled loss, part of the path being modelled, held the window',
    longhaulCommand: linkCommand(s, 'loss', '--loss 0'),
    how: `to model a cleaner path: ${linkCommand(s, 'loss', '--loss <ratio>')}; on a real path: find and fix the loss, or more streams (-P) share it`,
    why: "Each modelled loss halves the window (Reno): the emulated link's loss, not an OS setting, set this rate.",
    control: { kind: 'link', field: 'loss', bytes: null },
  };
}

function windowLine(s: LinkSettingsInfo, neededWindow: number | null): AdviceLine {
  return {
    setting: "the emulated window (loopback's --window: the bytes in flight the emulator lets through, standing for the ends' TCP windows)",
    currentValue: s.windowBytes === null ? 'not emulated' : `${groupDigits(s.windowBytes)} bytes`,
    neededValue: neededWindow !== null ? `at least ${groupDigits(neededWindow)} bytes per stream` : 'unknown until the emulated link has a rate',
    how: linkCommand(s, 'window', `--window ${neededWindow ?? '<bytes>'}`),
    longhaulCommand: linkCommand(s, 'window', `--window ${neededWindow ?? '<bytes>'}`),
    why: "The emulated window held this run. On a real path the ends' OS settings below decide the window: they are what to change there.",
    control: { kind: 'link', field: 'window', bytes: neededWindow },
  };
}

/**
 * The emulator's own lines for one verdict of an emulated run; `osAdvice` says whether the OS
 * lines follow (only for a window the ends' settings would set on a real path).
 */
export function emulatedLines(d: Diagnosis, link: LinkInfo, neededWindow: number | null): { lines: AdviceLine[]; osAdvice: boolean } {
  const s = link.settings;
  // A relay started from stage JSON has no settings to advise on: the ends' own advice stands.
  if (!s) return { lines: [], osAdvice: true };
  switch (d.verdict) {
    case 'emulator-limited':
      return { lines: [emulatorLine(link)], osAdvice: false };
    case 'link-limited':
      return { lines: [rateLine(s)], osAdvice: false };
    case 'congestion-limited':
      return { lines: s.lossRatio > 0 ? [lossLine(s)] : [], osAdvice: false };
    case 'window-limited':
      return { lines: [windowLine(s, neededWindow)], osAdvice: true };
    default:
      return { lines: [], osAdvice: false };
  }
}
