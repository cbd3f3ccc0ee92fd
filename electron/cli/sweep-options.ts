/**
 * `longhaul sweep`'s flags and their conversion to a validated `SweepPlan`.
 * Each list item is parsed by the run options' own parser (run-options.ts),
 * so a bad value names its flag and says what `longhaul run` would say.
 */
import { randomInt } from 'node:crypto';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DIRECTIONS, type Direction } from '../contract/direction.js';
import type { SweepDimension, SweepOrder, SweepPath, SweepPlan, SweepTarget } from '../contract/sweep.js';
import { DEFAULT_PARAMS } from '../protocol/run-params.js';
import {
  MAX_BUFFER_BYTES,
  MAX_MSS_BYTES,
  MAX_SECONDS,
  MAX_STREAMS,
  MAX_WINDOW_BYTES,
  MIN_INTERVAL_SECONDS,
  MIN_MSS_BYTES,
  MAX_BITRATE_BITS_PER_SEC,
  MIN_BITRATE_BITS_PER_SEC,
} from '../contract/limits.js';
import { LINK_PRESETS, findPreset } from '../proxy/presets.js';
import { ArgumentError } from '../util/errors.js';
import { SWEEP_LIMITS } from '../contract/sweep-app.js';
import { checkCongestion, intIn, rateIn, secondsIn, sizeIn } from './run-options.js';

export interface SweepFlags {
  loopback?: boolean;
  window?: (number | null)[];
  buffer?: number[];
  streams?: number[];
  mss?: (number | null)[];
  direction?: Direction[];
  link?: (string | null)[];
  path?: SweepPath[];
  seconds: number;
  interval: number;
  /** --bitrate, bit/s per stream, the same for every run (not a dimension). */
  bitrate?: number;
  /** --congestion, the same for every run (not a dimension). */
  congestion?: string;
  /** --capacity: measure each path the sweep crosses once, by its first run, and judge every run against it. */
  capacity?: boolean;
  repeat: number;
  pause: number;
  order: SweepOrder;
  seed?: number;
  json?: string;
  csv?: string;
  resume?: string;
  force?: boolean;
}

/** `64K,512K,default` → [65536, 524288, null]: each item through `one`; `word` (when given) stands for null. */
function listOf<T>(one: (v: string) => T, word?: string): (v: string) => (T | null)[] {
  return (text: string) => {
    const items = text.split(',').map((s) => s.trim());
    if (items.some((s) => s === '')) throw new InvalidArgumentError(`"${text}" has an empty item; give values separated by commas`);
    const values = items.map((s) => (word !== undefined && s.toLowerCase() === word ? null : one(s)));
    if (new Set(values).size !== values.length) throw new InvalidArgumentError(`"${text}" repeats a value`);
    return values;
  };
}

function choice<T extends string>(allowed: readonly T[]): (v: string) => T {
  return (v: string) => {
    if (!(allowed as readonly string[]).includes(v)) throw new InvalidArgumentError(`"${v}" is not one of ${allowed.join(', ')}`);
    return v as T;
  };
}

function preset(v: string): string {
  const p = findPreset(v);
  if (!p) throw new InvalidArgumentError(`unknown link preset "${v}" (known: ${LINK_PRESETS.map((x) => x.name).join(', ')}, none)`);
  return p.name;
}

const noNull = <T>(f: (v: string) => (T | null)[]) => f as (v: string) => T[];

/** Add the sweep flags to a command. */
export function addSweepOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--loopback', 'both ends on this PC (127.0.0.1): a responder is started for the whole sweep'))
    .addOption(
      new Option('-w, --window <list>', 'TCP windows per stream end, e.g. 64K,512K,default (default = OS autotuning)').argParser(
        listOf(sizeIn(1, MAX_WINDOW_BYTES, 'window'), 'default'),
      ),
    )
    .addOption(new Option('-l, --buffer <list>', 'bytes per write and per read, e.g. 4K,128K').argParser(noNull(listOf(sizeIn(1, MAX_BUFFER_BYTES, 'buffer')))))
    .addOption(
      new Option('-P, --streams <list>', `parallel TCP streams, 1-${MAX_STREAMS} each, e.g. 1,2,4`).argParser(noNull(listOf(intIn(1, MAX_STREAMS, 'streams')))),
    )
    .addOption(
      new Option('-M, --mss <list>', `MSS to ask for, ${MIN_MSS_BYTES}-${MAX_MSS_BYTES} or default, e.g. default,536`).argParser(
        listOf(intIn(MIN_MSS_BYTES, MAX_MSS_BYTES, 'mss'), 'default'),
      ),
    )
    .addOption(new Option('--direction <list>', 'forward (this PC sends), reverse, bidir, e.g. forward,reverse').argParser(noNull(listOf(choice(DIRECTIONS)))))
    .addOption(
      new Option('--link <list>', 'link presets through the emulator on this PC (with --loopback), or none, e.g. lan,none').argParser(listOf(preset, 'none')),
    )
    .addOption(
      new Option('--path <list>', 'direct, or relay (through a plain longhaul proxy on this PC, no impairment), e.g. direct,relay').argParser(
        noNull(listOf(choice(['direct', 'relay'] as const))),
      ),
    )
    .addOption(
      new Option('-t, --seconds <s>', 'length of each run, e.g. 10, 1.5s, 2m')
        .argParser(secondsIn(SWEEP_LIMITS.minSeconds, MAX_SECONDS, 'seconds'))
        .default(DEFAULT_PARAMS.seconds ?? 10),
    )
    .addOption(
      new Option('-i, --interval <s>', `seconds between samples, ${MIN_INTERVAL_SECONDS}-60`)
        .argParser(secondsIn(MIN_INTERVAL_SECONDS, 60, 'interval'))
        .default(DEFAULT_PARAMS.intervalSeconds),
    )
    .addOption(
      new Option('-b, --bitrate <rate>', 'pace every sending stream of every run at this rate, per stream as iperf3 -b (e.g. 5M); default: unpaced').argParser(
        rateIn('bitrate', MAX_BITRATE_BITS_PER_SEC, MIN_BITRATE_BITS_PER_SEC),
      ),
    )
    .addOption(new Option('-C, --congestion <name>', "congestion control of every stream end of every run, e.g. bbr; default: the system's"))
    .addOption(new Option('--capacity', "measure the path's bottleneck rate once per path (link, path, direction), after its first run"))
    .addOption(new Option('--repeat <n>', `runs per cell, 1-${SWEEP_LIMITS.maxRepeat}`).argParser(intIn(1, SWEEP_LIMITS.maxRepeat, 'repeat')).default(3))
    .addOption(
      new Option('--pause <time>', 'idle time between runs, e.g. 2s, 500ms').argParser(secondsIn(0, SWEEP_LIMITS.maxPauseSeconds, 'pause')).default(2, '2s'),
    )
    .addOption(
      // Checked by the parser rather than .choices(): commander's list of choices would make a third help line.
      new Option('--order <order>', 'shuffled (every cell once per round, in a fresh random order) or sequential')
        .argParser(choice(['shuffled', 'sequential'] as const))
        .default('shuffled'),
    )
    .addOption(new Option('--seed <n>', 'seed of the shuffled order (default: random; the file keeps it)').argParser(intIn(0, 0xffffffff, 'seed')))
    .addOption(new Option('--json <file>', 'the sweep file (longhaul.sweep/1), rewritten after every run (default: longhaul-sweep-<time>.json here)'))
    .addOption(new Option('--csv <file>', 'CSV: one row per run, one per cell, rewritten after every run'))
    .addOption(new Option('--resume <file>', 'run what a saved sweep still owes (missing, failed or partial runs), into the same file'))
    .addOption(new Option('--force', 'overwrite --json and --csv files that already exist'));
}

/** Flags that describe a plan: none of them may come with --resume (the plan is the file's). */
export const PLAN_FLAGS = ['loopback', 'window', 'buffer', 'streams', 'mss', 'direction', 'link', 'path', 'seed', 'bitrate', 'congestion', 'capacity'] as const;

/** Flags and the HOST argument → a plan. Throws ArgumentError naming the flag. */
export function sweepPlanFromFlags(hostPort: { host: string; port: number } | null, f: SweepFlags): SweepPlan {
  if (!hostPort && !f.loopback) throw new ArgumentError('give HOST[:PORT] (a paired responder) or --loopback', 'HOST');
  if (hostPort && f.loopback) throw new ArgumentError('give HOST[:PORT] or --loopback, not both', '--loopback');
  if (!f.loopback && f.link?.some((l) => l !== null))
    throw new ArgumentError('--link: the link emulator runs with --loopback only (use --path relay for a plain relay on this PC)', '--link');
  if (f.congestion) checkCongestion(f.congestion);
  const target: SweepTarget = hostPort ? { kind: 'peer', ...hostPort } : { kind: 'loopback' };
  const dims: SweepDimension[] = [];
  if (f.window) dims.push({ name: 'windowBytes', values: f.window });
  if (f.buffer) dims.push({ name: 'bufferBytes', values: f.buffer });
  if (f.streams) dims.push({ name: 'streams', values: f.streams });
  if (f.mss) dims.push({ name: 'mssBytes', values: f.mss });
  if (f.direction) dims.push({ name: 'direction', values: f.direction });
  if (f.link) dims.push({ name: 'link', values: f.link });
  if (f.path) dims.push({ name: 'path', values: f.path });
  return {
    target,
    base: {
      ...DEFAULT_PARAMS,
      seconds: f.seconds,
      bytes: null,
      intervalSeconds: f.interval,
      ...(f.bitrate ? { bitrateBitsPerSec: f.bitrate } : {}),
      ...(f.congestion ? { congestionControl: f.congestion } : {}),
    },
    dimensions: dims,
    repeat: f.repeat,
    pauseSeconds: f.pause,
    order: f.order,
    seed: f.seed ?? randomInt(0, 0xffffffff),
    ...(f.capacity ? { capacity: true } : {}),
  };
}
