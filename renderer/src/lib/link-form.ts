/**
 * The Link screen's form: the emulator's settings as typed (RTT, jitter, rate,
 * modelled loss, MSS, slow start), a preset's numbers poured into it, and the
 * validated `LinkSettingsInfo` the host runs (which validates again). The
 * window is the test's own: through the proxy it is also the emulated window,
 * because the real sockets only see the fast local hop to the proxy.
 */
import type { LinkChoice, UiLinkPreset } from '../../../electron/contract/api.js';
import {
  LINK_MAX_DELAY_MS,
  LINK_MAX_JITTER_MS,
  LINK_MAX_MSS_BYTES,
  LINK_MAX_RATE_BITS_PER_SEC,
  LINK_MIN_MSS_BYTES,
  parseLossRatio,
} from '../../../electron/contract/link-limits.js';
import type { LinkSettingsInfo } from '../../../electron/contract/link-info.js';
import { parseWindow, sizeText } from './test-form.js';
import { parseDuration, parseRate, type Parsed } from '../../../electron/contract/units.js';

export interface LinkForm {
  kind: 'direct' | 'proxy';
  /** The preset the numbers came from (then possibly edited), or null. */
  preset: string | null;
  /** Round trip; the proxy delays each direction by half. */
  rtt: string;
  jitter: string;
  rate: string;
  /** Modelled loss: `1%` or `0.01`. */
  loss: string;
  mss: string;
  slowstart: boolean;
}

export const DEFAULT_LINK_FORM: LinkForm = {
  kind: 'direct',
  preset: 'satellite',
  rtt: '1300ms',
  jitter: '0ms',
  rate: '4mbit',
  loss: '0%',
  mss: '1448',
  slowstart: true,
};

type LinkErrors = Partial<Record<'rtt' | 'jitter' | 'rate' | 'loss' | 'mss', string>>;

interface LinkOutcome {
  rttMs: number | null;
  rateBitsPerSec: number | null;
  /** The proxy's settings, or null while a field is wrong. */
  settings: LinkSettingsInfo | null;
  errors: LinkErrors;
}

/** A number as short text: 1300 → "1300", 0.2 → "0.2". */
function short(n: number): string {
  return String(Number(n.toFixed(6)));
}

/** bit/s as typed: 4e6 → "4mbit", 1e9 → "1gbit". */
export function rateText(bitsPerSec: number | null): string {
  if (bitsPerSec === null) return '';
  if (bitsPerSec >= 1e9 && bitsPerSec % 1e7 === 0) return `${short(bitsPerSec / 1e9)}gbit`;
  if (bitsPerSec >= 1e6) return `${short(bitsPerSec / 1e6)}mbit`;
  if (bitsPerSec >= 1e3) return `${short(bitsPerSec / 1e3)}kbit`;
  return `${short(bitsPerSec)}bit`;
}

/** The form holding a preset's numbers (the link kind is kept). */
export function formFromPreset(p: UiLinkPreset, kind: LinkForm['kind']): LinkForm {
  return formFromSettings(p.settings, p.name, kind);
}

/** The form holding these settings (a preset's, or a stored run's), named after `preset`. */
export function formFromSettings(s: LinkSettingsInfo, preset: string | null, kind: LinkForm['kind']): LinkForm {
  return {
    kind,
    preset,
    rtt: `${short(2 * s.delayMs)}ms`,
    jitter: `${short(s.jitterMs)}ms`,
    rate: rateText(s.rateBitsPerSec),
    loss: `${short(s.lossRatio * 100)}%`,
    mss: String(s.mssBytes),
    slowstart: s.slowstart,
  };
}

/**
 * Choosing a preset gives a form that can go on: the preset's numbers, and the window its settings name, or
 * the one typed when it is valid, else the OS default (a window left invalid would keep Next disabled
 * with no field of the preset to blame).
 */
export function applyPreset(p: UiLinkPreset, kind: LinkForm['kind'], windowText: string): { link: LinkForm; window: string } {
  const window = p.settings.windowBytes !== null ? sizeText(p.settings.windowBytes) : parseWindow(windowText).ok ? windowText : '';
  return { link: formFromPreset(p, kind), window };
}

function range(p: Parsed, lo: number, hi: number, msg: string): Parsed {
  return !p.ok ? p : p.value < lo || p.value > hi ? { ok: false, error: msg } : p;
}

/** Validate the form; `windowBytes` is the test's window (null = OS default, not emulated). */
export function validateLinkForm(f: LinkForm, windowBytes: number | null): LinkOutcome {
  const errors: LinkErrors = {};
  const rtt = range(parseDuration(f.rtt), 0, (2 * LINK_MAX_DELAY_MS) / 1000, `between 0 and ${(2 * LINK_MAX_DELAY_MS) / 1000} s`);
  const jitter = range(parseDuration(f.jitter), 0, LINK_MAX_JITTER_MS / 1000, `between 0 and ${LINK_MAX_JITTER_MS / 1000} s`);
  const rate = range(parseRate(f.rate), 1, LINK_MAX_RATE_BITS_PER_SEC, 'above 0, e.g. 4mbit');
  const loss = parseLossRatio(f.loss);
  const mss = /^\s*\d+\s*$/.test(f.mss)
    ? range({ ok: true, value: Number(f.mss) }, LINK_MIN_MSS_BYTES, LINK_MAX_MSS_BYTES, `from ${LINK_MIN_MSS_BYTES} to ${LINK_MAX_MSS_BYTES} bytes`)
    : { ok: false as const, error: 'whole bytes, e.g. 1448' };
  if (!rtt.ok) errors.rtt = rtt.error;
  if (!jitter.ok) errors.jitter = jitter.error;
  if (!rate.ok) errors.rate = rate.error;
  if (!loss.ok) errors.loss = loss.error;
  if (!mss.ok) errors.mss = mss.error;
  const rttMs = rtt.ok ? rtt.value * 1000 : null;
  const rateBitsPerSec = rate.ok ? rate.value : null;
  if (!rtt.ok || !jitter.ok || !rate.ok || !loss.ok || !mss.ok) return { rttMs, rateBitsPerSec, settings: null, errors };
  const settings: LinkSettingsInfo = {
    delayMs: rtt.value * 500,
    jitterMs: jitter.value * 1000,
    rateBitsPerSec: rate.value,
    windowBytes,
    slowstart: f.slowstart,
    lossRatio: loss.value,
    mssBytes: mss.value,
  };
  return { rttMs, rateBitsPerSec, settings, errors };
}

/** What Start sends: direct, or the proxy with its settings (null when the form is wrong). */
export function linkChoice(f: LinkForm, windowBytes: number | null): LinkChoice | null {
  if (f.kind === 'direct') return { kind: 'direct' };
  const o = validateLinkForm(f, windowBytes);
  return o.settings ? { kind: 'proxy', preset: f.preset, settings: o.settings } : null;
}
