/**
 * The Sweep screen's form: each setting is a comma-separated list of values
 * as typed ("OS default, 64K, 256K"), turned into a `SweepPlan` with one
 * message per bad field. A list of two or more values sweeps that setting;
 * one value is the setting every run uses. Sizes use the Test form's parser
 * and limits (units.ts, test-form.ts); the host validates the plan again.
 */
import { SWEEP_LIMITS } from '../../../electron/contract/sweep-app.js';
import type { Direction } from '../../../electron/contract/direction.js';
import type { SweepDimension, SweepOrder, SweepPath, SweepPlan, SweepTarget } from '../../../electron/contract/sweep.js';
import { LIMITS } from './test-form.js';
import { parseDuration, parseSize } from '../../../electron/contract/units.js';

const { maxValues: MAX_VALUES, maxCells: MAX_CELLS, maxRepeat: MAX_REPEAT, maxPauseSeconds: MAX_PAUSE_SECONDS, minSeconds: MIN_SECONDS } = SWEEP_LIMITS;

export interface SweepForm {
  /** Window per stream end; "OS default" (or "default") = autotuning. */
  window: string;
  buffer: string;
  streams: string;
  /** Requested MSS; "OS default" = the OS's own. */
  mss: string;
  directions: Direction[];
  /** Link preset names, with '' for "no emulator" (this-PC sweeps only). */
  links: string[];
  paths: SweepPath[];
  seconds: string;
  repeat: string;
  pause: string;
  order: SweepOrder;
  /** Measure each path once (the CLI's sweep --capacity): its first run is followed by Longhaul's tuned run. */
  measurePath: boolean;
}

export const DEFAULT_SWEEP_FORM: SweepForm = {
  window: 'OS default',
  buffer: '128K',
  streams: '1',
  mss: 'OS default',
  directions: ['forward'],
  links: [''],
  paths: ['direct'],
  seconds: '5',
  repeat: '3',
  pause: '1',
  order: 'shuffled',
  measurePath: false,
};

export type SweepFormErrors = Partial<Record<keyof SweepForm, string>>;

interface SweepFormOutcome {
  plan: SweepPlan | null;
  errors: SweepFormErrors;
}

type Item<T> = { ok: true; value: T } | { ok: false; error: string };

const DEFAULT_WORDS = /^(os\s*default|default|os|auto)$/i;

/** A comma-separated list: each item parsed by `one`, duplicates and over-long lists refused. */
export function parseList<T>(text: string, one: (item: string) => Item<T>): Item<[T, ...T[]]> {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length > MAX_VALUES) return { ok: false, error: `at most ${MAX_VALUES} values` };
  const out: T[] = [];
  for (const item of items) {
    const r = one(item);
    if (!r.ok) return { ok: false, error: `${item}: ${r.error}` };
    if (out.includes(r.value)) return { ok: false, error: `${item} is listed twice` };
    out.push(r.value);
  }
  const [first, ...rest] = out;
  return first === undefined ? { ok: false, error: 'at least one value' } : { ok: true, value: [first, ...rest] };
}

function sizeItem(min: number, max: number, range: string, allowDefault: boolean) {
  return (item: string): Item<number | null> => {
    if (allowDefault && DEFAULT_WORDS.test(item)) return { ok: true, value: null };
    const r = parseSize(item);
    if (!r.ok) return r;
    return r.value >= min && r.value <= max ? r : { ok: false, error: range };
  };
}

const windowItem = sizeItem(1, LIMITS.maxWindowBytes, 'between 1 byte and 1G', true);
const mssItem = sizeItem(LIMITS.minMssBytes, LIMITS.maxMssBytes, `between ${LIMITS.minMssBytes} and ${LIMITS.maxMssBytes} bytes`, true);
const bufferItem = sizeItem(1, LIMITS.maxBufferBytes, 'between 1 byte and 16M', false) as (item: string) => Item<number>;
function streamsItem(item: string): Item<number> {
  const n = /^\d+$/.test(item) ? Number(item) : NaN;
  return n >= 1 && n <= LIMITS.maxStreams ? { ok: true, value: n } : { ok: false, error: `a whole number from 1 to ${LIMITS.maxStreams}` };
}

function wholeNumber(text: string, min: number, max: number): number | null {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  return n >= min && n <= max ? n : null;
}

/** How many values a field's text holds (0 when it does not parse), for the dimension chips. */
export function countValues(form: SweepForm, field: 'window' | 'buffer' | 'streams' | 'mss'): number {
  const one = field === 'window' ? windowItem : field === 'mss' ? mssItem : field === 'buffer' ? bufferItem : streamsItem;
  const r = parseList<number | null>(form[field], one);
  return r.ok ? r.value.length : 0;
}

/**
 * The form as a plan for `target`. Settings with one value go into `base`;
 * settings with several become dimensions, in the contract's order
 * (SWEEP_DIMENSION_NAMES). A link or relay path chosen alone is still a
 * one-value dimension: `base` cannot hold them.
 */
export function validateSweepForm(f: SweepForm, target: SweepTarget, seed: number): SweepFormOutcome {
  const errors: SweepFormErrors = {};
  const windows = parseList(f.window, windowItem);
  const buffers = parseList(f.buffer, bufferItem);
  const streams = parseList(f.streams, streamsItem);
  const mss = parseList(f.mss, mssItem);
  if (!windows.ok) errors.window = windows.error;
  if (!buffers.ok) errors.buffer = buffers.error;
  if (!streams.ok) errors.streams = streams.error;
  if (!mss.ok) errors.mss = mss.error;
  if (f.directions.length === 0) errors.directions = 'pick at least one direction';
  if (f.paths.length === 0) errors.paths = 'pick at least one path';
  const links = target.kind === 'loopback' ? f.links.map((l) => (l === '' ? null : l)) : [null];
  if (links.length === 0) errors.links = 'pick at least one link (or "none")';

  const s = parseDuration(f.seconds);
  let seconds = 0;
  if (!s.ok) errors.seconds = s.error;
  else if (!(s.value >= MIN_SECONDS && s.value <= LIMITS.maxSeconds)) errors.seconds = `between ${MIN_SECONDS} s and 24 h`;
  else seconds = s.value;
  const repeat = wholeNumber(f.repeat, 1, MAX_REPEAT);
  if (repeat === null) errors.repeat = `a whole number from 1 to ${MAX_REPEAT}`;
  const p = parseDuration(f.pause);
  if (!p.ok) errors.pause = p.error;
  else if (p.value > MAX_PAUSE_SECONDS) errors.pause = `at most ${MAX_PAUSE_SECONDS} s`;

  const [direction] = f.directions;
  if (!windows.ok || !buffers.ok || !streams.ok || !mss.ok || !p.ok || repeat === null || direction === undefined || Object.keys(errors).length > 0)
    return { plan: null, errors };

  const dimensions: SweepDimension[] = [];
  if (windows.value.length > 1) dimensions.push({ name: 'windowBytes', values: windows.value });
  if (buffers.value.length > 1) dimensions.push({ name: 'bufferBytes', values: buffers.value });
  if (streams.value.length > 1) dimensions.push({ name: 'streams', values: streams.value });
  if (mss.value.length > 1) dimensions.push({ name: 'mssBytes', values: mss.value });
  if (f.directions.length > 1) dimensions.push({ name: 'direction', values: [...f.directions] });
  if (links.length > 1 || links[0] !== null) dimensions.push({ name: 'link', values: links });
  if (f.paths.length > 1 || f.paths[0] !== 'direct') dimensions.push({ name: 'path', values: [...f.paths] });

  const cells = dimensions.reduce((n, d) => n * d.values.length, 1);
  // Shown under the longest list: the one to shorten first.
  if (cells > MAX_CELLS) {
    const lists = { window: windows.value, buffer: buffers.value, streams: streams.value, mss: mss.value };
    const longest = (Object.keys(lists) as (keyof typeof lists)[]).reduce((a, b) => (lists[b].length > lists[a].length ? b : a));
    return { plan: null, errors: { [longest]: `${cells} cells (the values of every setting multiplied): at most ${MAX_CELLS}` } };
  }
  const mssBytes = mss.value[0] ?? null;
  const plan: SweepPlan = {
    target,
    base: {
      streams: streams.value[0],
      bufferBytes: buffers.value[0],
      windowBytes: windows.value[0],
      bytes: null,
      seconds,
      direction,
      intervalSeconds: 1,
      // Absent rather than null, as a single run sends it: an older partner's strict schema still accepts the run.
      ...(mssBytes === null ? {} : { mssBytes }),
    },
    dimensions,
    repeat,
    pauseSeconds: p.value,
    order: f.order,
    seed: seed >>> 0,
    ...(f.measurePath ? { capacity: true } : {}),
  };
  return { plan, errors };
}
