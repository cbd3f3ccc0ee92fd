/**
 * The link flags shared by `longhaul proxy` and `longhaul loopback`, and their
 * conversion to a validated `LinkSpec`: a preset (all its numbers shown and
 * overridable), then each flag given, or a JSON file for anything else.
 */
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { stageSummaries } from '../proxy/registry.js';
import { NO_LINK, parseLinkSettings, parseLinkSpec, type LinkSettings, type LinkSpec } from '../proxy/link-settings.js';
import { LINK_PRESETS, findPreset } from '../proxy/presets.js';
import { ArgumentError } from '../util/errors.js';
import { parseDuration, parseRate, parseSize } from '../util/units.js';
import { present } from '../contract/present.js';
import { parseLossRatio } from '../contract/link-limits.js';
import { addHelpBlock, termLines } from './help-layout.js';

/** The heading the link flags have in `--help`, wherever they are added. */
export const HELP_LINK = 'Link emulator:';

export interface LinkFlags {
  /** `--preset` (proxy) */
  preset?: string;
  /** `--link` (loopback): the same thing */
  link?: string;
  delay?: string;
  jitter?: string;
  rate?: string;
  window?: number | string;
  slowstart?: boolean;
  loss?: string;
  lossPattern?: string;
  linkConfig?: string;
  linkJson?: string;
}

/** Add the link flags, under HELP_LINK. `presetFlag` is `--preset` (proxy) or `--link` (loopback). */
export function addLinkOptions(cmd: Command, o: { presetFlag: '--preset' | '--link'; window: boolean }): Command {
  const names = LINK_PRESETS.map((p) => p.name).join(', ');
  const options = [
    new Option(`${o.presetFlag} <name>`, `emulated link preset: ${names}`),
    new Option('--delay <time>', 'one-way delay each direction, e.g. 650ms (RTT = 2 x)'),
    new Option('--jitter <time>', 'delay jitter, e.g. 5ms (never reorders bytes)'),
    new Option('--rate <rate>', 'link rate each way, e.g. 4mbit'),
    new Option('--slowstart', 'emulate TCP slow start (cap from 10 x MSS, doubling per RTT)'),
    new Option('--no-slowstart', 'no slow-start emulation (overrides a preset)'),
    new Option('--loss <ratio>', 'MODELLED loss per segment, e.g. 0.1% (a relay cannot drop packets: see loss below)'),
    new Option('--loss-pattern <pattern>', 'segments --loss takes: random, or periodic (every 1/ratio-th)').choices(['random', 'periodic']),
    new Option('--link-config <file>', 'link as JSON: settings, or { "up": [stages], "down": [stages] }'),
    new Option('--link-json <json>', 'link as inline JSON').hideHelp(),
    ...(o.window ? [new Option('--window <bytes>', 'emulated TCP window: cap on bytes in flight, e.g. 64K')] : []),
  ];
  for (const option of options) cmd.addOption(option.helpGroup(HELP_LINK));
  // What a --link-config chain may hold: each stage says it itself (proxy/stages/*.ts).
  return addHelpBlock(
    cmd,
    'Stages a --link-config chain may hold:',
    stageSummaries().flatMap((s) => termLines(s.type, s.summary, 11)),
  );
}

function nonNegative(flag: string, text: string, parse: (t: string, f?: string) => number): number {
  if (/^\s*-/.test(text)) throw new ArgumentError(`${flag}: cannot be negative ("${text}")`, flag);
  return parse(text, flag);
}

/** `--loss`: `0.1%` → 0.001; `0.001` → 0.001 (the contract's parser). Throws ArgumentError naming the flag. */
export function lossFlag(text: string): number {
  const r = parseLossRatio(text);
  if (!r.ok) throw new ArgumentError(`--loss: "${text}": ${r.error}`, '--loss');
  return r.value;
}

/** Did the user ask for a link at all? */
export function wantsLink(f: LinkFlags): boolean {
  return [f.preset, f.link, f.delay, f.jitter, f.rate, f.loss, f.lossPattern, f.linkConfig, f.linkJson, f.slowstart].some((v) => v !== undefined);
}

/** Flags → spec, or null when no link flag was given. Throws ArgumentError naming the flag. */
export function linkSpecFromFlags(f: LinkFlags, windowBytes: number | null = null): { spec: LinkSpec; preset: string | null } | null {
  if (!wantsLink(f) && f.window === undefined) return null;
  if (f.linkConfig !== undefined || f.linkJson !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(f.linkJson ?? readFileSync(present(f.linkConfig, '--link-config'), 'utf8'));
    } catch (err) {
      throw new ArgumentError(`--link-config: cannot read JSON: ${(err as Error).message}`, '--link-config');
    }
    return { spec: parseLinkSpec(json), preset: null };
  }
  let base = NO_LINK;
  const presetName = f.preset ?? f.link;
  if (presetName !== undefined) {
    const p = findPreset(presetName);
    if (!p) throw new ArgumentError(`unknown link preset "${presetName}" (known: ${LINK_PRESETS.map((x) => x.name).join(', ')})`, '--link');
    base = p.settings;
  }
  const s: LinkSettings = { ...base };
  if (f.delay !== undefined) s.delayMs = nonNegative('--delay', f.delay, parseDuration) * 1000;
  if (f.jitter !== undefined) s.jitterMs = nonNegative('--jitter', f.jitter, parseDuration) * 1000;
  if (f.rate !== undefined) {
    s.rateBitsPerSec = nonNegative('--rate', f.rate, parseRate);
    if (s.rateBitsPerSec === 0) throw new ArgumentError('--rate: must be above 0 (leave --rate out for no limit)', '--rate');
  }
  const window = f.window !== undefined ? (typeof f.window === 'number' ? f.window : nonNegative('--window', f.window, parseSize)) : windowBytes;
  if (window !== null && window !== undefined) s.windowBytes = window;
  if (f.slowstart !== undefined) s.slowstart = f.slowstart;
  if (f.loss !== undefined) s.lossRatio = lossFlag(f.loss);
  if (f.lossPattern !== undefined) {
    if (s.lossRatio === 0) throw new ArgumentError('--loss-pattern: needs a --loss above 0', '--loss-pattern');
    s.lossPattern = f.lossPattern as 'random' | 'periodic';
  }
  const settings = parseLinkSettings(s);
  return { spec: parseLinkSpec(settings), preset: presetName?.toLowerCase() ?? null };
}

/** `3s,6s` → [3, 6]: increasing run times in seconds. */
export function parseBypassTimes(text: string): number[] {
  const times = text.split(',').map((t) => nonNegative('--bypass-at', t.trim(), parseDuration));
  if (times.some((t, i) => t <= (times[i - 1] ?? -Infinity))) throw new ArgumentError('--bypass-at: times must increase, e.g. 3s,6s', '--bypass-at');
  return times;
}
