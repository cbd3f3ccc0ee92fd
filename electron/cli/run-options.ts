/**
 * The run options shared by `longhaul run` and `longhaul loopback`, how their
 * help is laid out, and their conversion to validated `RunParams`. Every bad
 * value names its flag.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_PARAMS, runParamsSchema, type RunParams } from '../protocol/run-params.js';
import {
  MAX_BUFFER_BYTES,
  MAX_SECONDS,
  MAX_STREAMS,
  MIN_INTERVAL_SECONDS,
  MAX_MSS_BYTES,
  MAX_WINDOW_BYTES,
  MIN_MSS_BYTES,
  MAX_BITRATE_BITS_PER_SEC,
  MAX_PATH_RATE_BITS_PER_SEC,
  MIN_BITRATE_BITS_PER_SEC,
} from '../contract/limits.js';
import { UDP_DEFAULT_BITS_PER_SEC, UDP_DEFAULT_DATAGRAM_BYTES, UDP_MAX_DATAGRAM_BYTES, UDP_MIN_DATAGRAM_BYTES, UDP_REFUSALS } from '../contract/udp.js';
import { ArgumentError } from '../util/errors.js';
import { parseHostPort } from '../util/net.js';
import { parseDuration, parseRate, parseSize } from '../util/units.js';
import { addReportOptions, type ReportFlags } from './run-reports.js';
import { addExplainOption } from './explain-option.js';
import { groupOptions, termLines } from './help-layout.js';
import { congestionRefusal } from '../engine/data-plane/data-worker/congestion.js';
import { nativeSockets } from '../native/load-native.js';

function wrap<T>(fn: (v: string) => T): (v: string) => T {
  return (v: string) => {
    try {
      return fn(v);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message.replace(/^--?[\w-]+: /, ''));
    }
  };
}

export function intIn(min: number, max: number, what: string): (v: string) => number {
  return wrap((v) => {
    if (!/^\s*\d+\s*$/.test(v)) throw new Error(`"${v}" is not a whole number`);
    const n = Number(v);
    if (n < min || n > max) throw new Error(`${what} must be between ${min} and ${max}, got ${n}`);
    return n;
  });
}

export function sizeIn(min: number, max: number, what: string): (v: string) => number {
  return wrap((v) => {
    if (/^\s*-/.test(v)) throw new Error(`${what} cannot be negative ("${v}")`);
    const n = parseSize(v);
    if (n < min || n > max) throw new Error(`${what} must be between ${min} and ${max} bytes, got ${n}`);
    return n;
  });
}

export function secondsIn(min: number, max: number, what: string): (v: string) => number {
  return wrap((v) => {
    if (/^\s*-/.test(v)) throw new Error(`${what} cannot be negative ("${v}")`);
    const s = parseDuration(v);
    if (!(s >= min && s <= max)) throw new Error(`${what} must be between ${min} s and ${max} s, got ${s} s`);
    return s;
  });
}

/** A rate flag (`4mbit`, `1g`), above 0 (or at least `min`). */
export function rateIn(what: string, max: number, min = 0): (v: string) => number {
  return wrap((v) => {
    const r = parseRate(v);
    if (!(r > 0)) throw new Error(`${what} must be above 0, got "${v}"`);
    if (r < min) throw new Error(`${what} must be at least ${min / 1e3} kbit/s, got "${v}"`);
    if (r > max) throw new Error(`${what} must be at most ${max / 1e9} Gbit/s, got "${v}"`);
    return r;
  });
}

export interface RunFlags extends ReportFlags {
  streams: number;
  /** -l; absent: 128 KiB for TCP, UDP_DEFAULT_DATAGRAM_BYTES for -u. */
  buffer?: number;
  window?: number;
  mss?: number;
  bytes?: number;
  seconds?: number;
  reverse?: boolean;
  bidir?: boolean;
  interval: number;
  json?: string;
  workers?: number;
  pathRate?: number;
  bitrate?: number;
  congestion?: string;
  omit?: number;
  /** -Z: senders use sendfile(2) where the OS allows (contract/send-path.ts). */
  zerocopy?: boolean;
  capacity?: boolean;
  /** -p (run): the responder's port when HOST has no :PORT. */
  port?: number;
  /** -V, --verbose, --explain: the whole detail after the run. */
  explain?: boolean;
  /** -J: the result document on standard output instead of the summary. */
  jsonStdout?: boolean;
  /** -u: UDP datagrams instead of TCP streams (docs/udp.md). */
  udp?: boolean;
  /** --udp-ramp [LOSS]: UDP at rising rates until loss passes LOSS (ramp-options.ts); true: the default threshold. */
  udpRamp?: boolean | string;
}

/** The headings of `run --help` and `loopback --help`, as iperf3's "Server or Client:" and "Client specific:". */
const HELP_COMMON = 'Common:';
const HELP_RUN = 'Run (client):';
const HELP_REPORTS = 'Reports:';

/** Which heading each run option goes under; `extra` adds a command's own options. */
export function groupRunHelp(cmd: Command, extra: { common?: string[]; run?: string[] } = {}): Command {
  return groupOptions(
    cmd,
    {
      [HELP_COMMON]: [...(extra.common ?? []), '--interval', '--explain', '--verbose'],
      [HELP_RUN]: [
        ...(extra.run ?? []),
        ...['--udp', '--streams', '--buffer', '--window', '--mss', '--bytes', '--seconds', '--reverse', '--bidir'],
        ...['--bitrate', '--congestion', '--zerocopy', '--omit', '--path-rate', '--capacity', '--udp-ramp', '--workers'],
      ],
      [HELP_REPORTS]: ['--json', '--json-stdout', '--log', '--csv', '--distance-km', '--force'],
    },
    HELP_COMMON,
  );
}

/** What the one-line descriptions leave out, after the options. */
const NOTES: readonly [term: string, text: string][] = [
  [
    '-u',
    `datagrams of -l bytes (default ${UDP_DEFAULT_DATAGRAM_BYTES}) at -b per stream (default 1M, as iperf3); the receiver counts loss, order and jitter (RFC 3550); -w is its socket buffer`,
  ],
  [
    '--udp-ramp',
    'runs of -t each (default 3 s): -b doubles while at most LOSS is lost, then narrows to the first rate dropped; the answer is the highest rate that arrived (--json FILE keeps every step)',
  ],
  ['-w', 'Linux: the window the receiver advertises (TCP_WINDOW_CLAMP); elsewhere the socket buffers'],
  ['-M', 'TCP_MAXSEG before the handshake; the result says what the kernel used, and when the OS refused'],
  ['-b', "both ends pace: Linux SO_MAX_PACING_RATE, elsewhere Longhaul's own pacing; 5M = 5 Mbit/s of payload per stream"],
  ['-C', 'Linux TCP_CONGESTION (bbr, cubic, reno…), refused on Windows and macOS; the result says what each end used'],
  [
    '-Z',
    'Linux: sendfile(2) from a memory file of the payload, as iperf3 -Z; elsewhere the senders copy and the result says why; both ends that send use it (-R, --bidir)',
  ],
  ['-O', 'the omitted intervals stay in the result, marked omitted'],
  [
    '--capacity',
    "a second run, Longhaul's own (4 streams, windows set on both ends), measures the bottleneck; the verdict and advice use its rate when --path-rate is absent",
  ],
  ['-J', 'standard output carries the JSON document alone; the progress goes to standard error'],
];

/** The notes block's lines: a command's own notes first, then the run options'. */
export function runNotes(own: [term: string, text: string][] = []): string[] {
  return [...own, ...NOTES].flatMap(([term, text]) => termLines(term, text, 12));
}

/** Add the run options to a command; the result options follow with addResultOptions (a command may put its own between). */
export function addRunOptions(cmd: Command): Command {
  return addExplainOption(cmd)
    .addOption(new Option('-u, --udp', 'UDP instead of TCP: loss, jitter and the rate the path carries, as iperf3 -u'))
    .addOption(
      new Option('-P, --streams <n>', `parallel TCP streams, 1-${MAX_STREAMS}`).argParser(intIn(1, MAX_STREAMS, 'streams')).default(DEFAULT_PARAMS.streams),
    )
    .addOption(
      new Option(
        '-l, --buffer <bytes>',
        `bytes per write and per read (e.g. 128K, 1M; default 128K); with -u, per datagram (default ${UDP_DEFAULT_DATAGRAM_BYTES})`,
      ).argParser(sizeIn(1, MAX_BUFFER_BYTES, 'buffer')),
    )
    .addOption(
      new Option('-w, --window <bytes>', 'TCP window per stream end, e.g. 64K, 20M; default: OS autotuning').argParser(sizeIn(1, MAX_WINDOW_BYTES, 'window')),
    )
    .addOption(
      new Option('-M, --mss <bytes>', `MSS to ask for on every stream end, ${MIN_MSS_BYTES}-${MAX_MSS_BYTES}; default: the OS's own`).argParser(
        intIn(MIN_MSS_BYTES, MAX_MSS_BYTES, 'mss'),
      ),
    )
    .addOption(
      new Option('-n, --bytes <bytes>', 'stop after this many bytes in total (per direction), e.g. 1G')
        .argParser(sizeIn(1, Number.MAX_SAFE_INTEGER, 'bytes'))
        .conflicts('seconds'),
    )
    .addOption(new Option('-t, --seconds <s>', 'stop after this long (default 10 s), e.g. 30, 1.5s, 2m').argParser(secondsIn(0.1, MAX_SECONDS, 'seconds')))
    .addOption(new Option('-R, --reverse', 'the responder sends, this PC receives').conflicts('bidir'))
    .addOption(new Option('--bidir', 'both send at once: N streams each way'))
    .addOption(
      new Option('-i, --interval <s>', `seconds between samples, ${MIN_INTERVAL_SECONDS}-60`)
        .argParser(secondsIn(MIN_INTERVAL_SECONDS, 60, 'interval'))
        .default(DEFAULT_PARAMS.intervalSeconds),
    )
    .addOption(
      new Option('-b, --bitrate <rate>', 'pace every sending stream at this rate, PER STREAM as iperf3 -b, e.g. 5M; default: unpaced').argParser(
        rateIn('bitrate', MAX_BITRATE_BITS_PER_SEC, MIN_BITRATE_BITS_PER_SEC),
      ),
    )
    .addOption(new Option('-C, --congestion <name>', "congestion control of every stream end, e.g. bbr, cubic; default: the system's"))
    .addOption(new Option('-Z, --zerocopy', "zero-copy sender: the kernel sends from a file's pages, not a copy of the buffer, as iperf3 -Z"))
    .addOption(
      new Option('-O, --omit <s>', 'leave the first S seconds (slow start) out of the totals and the verdict, as iperf3 -O').argParser(
        secondsIn(0, MAX_SECONDS, 'omit'),
      ),
    )
    .addOption(
      new Option('--path-rate <rate>', "the path's rate as you know it, e.g. 4mbit: advice and what-if name the window that fills it").argParser(
        rateIn('path rate', MAX_PATH_RATE_BITS_PER_SEC),
      ),
    )
    .addOption(new Option('--capacity', "after the run, measure the path's bottleneck rate (Longhaul's own tuned run)"))
    .addOption(
      new Option(
        '--udp-ramp [loss]',
        'UDP (implies -u) at rising -b, from -b (default 1M), until more than LOSS is lost (default 1%): the rate the path carries; -t is each step (default 3 s)',
      ),
    )
    .addOption(new Option('--workers <n>', 'data worker processes per role (default: number of CPUs)').argParser(intIn(1, 64, 'workers')).hideHelp());
}

/** Add the options that say where the result goes: --json, -J and the report files. */
export function addResultOptions(cmd: Command): Command {
  cmd
    .addOption(new Option('--json <file>', 'write the result (longhaul.result/1) to this file, also when the run fails'))
    .addOption(new Option('-J, --json-stdout', 'print the result (JSON) on standard output instead of the summary, as iperf3 -J'));
  return addReportOptions(cmd); // --log, --csv, --distance-km, --force: see run-reports.ts
}

/** `--congestion NAME`: this PC's own socket is asked now, so a typo or a system-wide setting is an exit 2, not a failed run. */
export function checkCongestion(name: string): void {
  if (!/^[a-z0-9_-]{1,15}$/i.test(name)) throw new ArgumentError(`--congestion: "${name}" is not a congestion control name`, '--congestion');
  const refused = congestionRefusal(nativeSockets().api, name);
  if (refused) throw new ArgumentError(`--congestion ${name}: ${refused}`, '--congestion');
}

/** Flags → validated parameters. Throws ArgumentError naming the flag. */
export function runParamsFromFlags(f: RunFlags): RunParams {
  if (f.udp) checkUdpFlags(f);
  const params: RunParams = {
    streams: f.streams,
    bufferBytes: f.buffer ?? (f.udp ? UDP_DEFAULT_DATAGRAM_BYTES : DEFAULT_PARAMS.bufferBytes),
    windowBytes: f.window ?? null,
    bytes: f.bytes ?? null,
    seconds: f.bytes !== undefined ? null : (f.seconds ?? DEFAULT_PARAMS.seconds),
    direction: f.bidir ? 'bidir' : f.reverse ? 'reverse' : 'forward',
    intervalSeconds: f.interval,
    ...(f.mss !== undefined ? { mssBytes: f.mss } : {}),
    ...(f.bitrate !== undefined || f.udp ? { bitrateBitsPerSec: f.bitrate ?? UDP_DEFAULT_BITS_PER_SEC } : {}),
    ...(f.udp ? { protocol: 'udp' as const } : {}),
    ...(f.congestion !== undefined ? { congestionControl: f.congestion } : {}),
    ...(f.omit ? { omitSeconds: f.omit } : {}),
    ...(f.zerocopy ? { zeroCopy: true as const } : {}),
  };
  if (f.omit && f.bytes === undefined && f.omit >= (params.seconds ?? Infinity)) {
    throw new ArgumentError(`--omit ${f.omit} s must be shorter than the run (${params.seconds} s): nothing would be left to measure`, '--omit');
  }
  if (f.congestion !== undefined) checkCongestion(f.congestion);
  const r = runParamsSchema.safeParse(params);
  if (!r.success) throw new ArgumentError(`invalid run parameters: ${r.error.issues[0]?.message ?? 'unknown'}`);
  return r.data;
}

/** What -u cannot go with, each refused with its reason (docs/udp.md). */
function checkUdpFlags(f: RunFlags): void {
  const refuse = (flag: string, why: string): never => {
    throw new ArgumentError(`-u with ${flag}: ${why}`, flag);
  };
  if (f.congestion !== undefined) refuse('-C', UDP_REFUSALS.congestion);
  if (f.mss !== undefined) refuse('-M', UDP_REFUSALS.mss);
  if (f.zerocopy) refuse('-Z', UDP_REFUSALS.zeroCopy);
  if (f.capacity) refuse('--capacity', UDP_REFUSALS.capacity);
  if (f.buffer !== undefined && (f.buffer < UDP_MIN_DATAGRAM_BYTES || f.buffer > UDP_MAX_DATAGRAM_BYTES)) {
    refuse('-l', `a datagram is ${UDP_MIN_DATAGRAM_BYTES}-${UDP_MAX_DATAGRAM_BYTES} bytes (its header, and IPv4's largest UDP payload), got ${f.buffer}`);
  }
}

/** `HOST[:PORT]` with `-p`: the port from either, and the same port when both give one. Throws ArgumentError naming -p. */
export function parseTarget(text: string, portFlag: number | undefined, defaultPort: number): { host: string; port: number } {
  const target = parseHostPort(text, portFlag ?? defaultPort);
  if (portFlag !== undefined && target.port !== portFlag) {
    throw new ArgumentError(`"${text}" says port ${target.port} but -p says ${portFlag}: give the port once`, '-p');
  }
  return target;
}
