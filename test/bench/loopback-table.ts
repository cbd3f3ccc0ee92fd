/**
 * `npm run bench`'s rows and its report: which configurations it runs, the ranges over rounds
 * (min–max, never a mean: on a shared machine the spread is the finding), the ratios of Longhaul to
 * each iperf3 in the same round, and the markdown that goes into docs/bench.md. Pure: the bench
 * measures, this formats; test/bench/loopback-table.test.ts checks it without running anything.
 */
import { parseSize } from '../../electron/util/units.js';

/**
 * One row of the bench: streams (-P), bytes per write (-l), whether the server sends (-R), and a
 * per-stream pace (-b, as both tools read it: decimal, bits per second) or none.
 */
export interface BenchConfig {
  streams: number;
  lengthBytes: number;
  reverse: boolean;
  /** `-b` as typed (`5G`), the same text to both tools; null: unpaced. */
  bitrate: string | null;
}

/**
 * The default rows: -P 1, 2 and 4 at 128 KiB and 1 MiB writes, -R at 1 MiB with 1 and 2 streams,
 * and two paced rows. Unpaced, both tools keep a 2-core machine 100 % busy, so CPU per GB there is
 * cores ÷ rate for either; paced at the same rate, the CPU each spends is what it takes from the
 * machine it measures (issue 43).
 */
export const DEFAULT_CONFIGS = '1x128K,1x1M,2x128K,2x1M,4x128K,4x1M,1x1M-R,2x1M-R,1x128K@5G,2x1M@5G';

/** `1x128K,2x1M-R,1x128K@5G` → configurations; throws naming the first item it cannot read. */
export function parseConfigs(text: string): BenchConfig[] {
  return text.split(',').map((item) => {
    const m = /^(\d+)x(\d+[KMG]?)(-R)?(?:@(\d+(?:\.\d+)?[KMG]?))?$/i.exec(item.trim());
    const streams = Number(m?.[1]);
    const lengthBytes = m?.[2] ? parseSize(m[2]) : NaN;
    if (!m || !(streams >= 1 && streams <= 128) || !(lengthBytes > 0) || (m[4] !== undefined && !(parseFloat(m[4]) > 0))) {
      throw new Error(`--configs: "${item}" is not STREAMSxLENGTH[-R][@RATE] (e.g. 2x1M-R, 1x128K@5G)`);
    }
    return { streams, lengthBytes, reverse: m[3] !== undefined, bitrate: m[4]?.toUpperCase() ?? null };
  });
}

/** A configuration as the tools' own flags: `-P 2 -l 1M -R -b 5G`. */
export function configLabel(c: BenchConfig): string {
  const length = c.lengthBytes % (1024 * 1024) === 0 ? `${c.lengthBytes / 1024 / 1024}M` : `${c.lengthBytes / 1024}K`;
  return `-P ${c.streams} -l ${length}${c.reverse ? ' -R' : ''}${c.bitrate ? ` -b ${c.bitrate}` : ''}`;
}

/** One tool's run in one round: its figures and the whole machine's busy CPU time over the run. */
export interface ToolRun {
  /** The tool's key (ToolColumn.key). */
  tool: string;
  /** 1-based. */
  round: number;
  bitsPerSecond: number;
  bytes: number;
  /** Busy seconds of all cores together (/proc/stat) from the client's start to both ends' exit. */
  busyCpuSeconds: number;
  notes: string[];
}

/** A tool as the report names it. */
export interface ToolColumn {
  key: string;
  /** `iperf3 3.21`, `Longhaul`. */
  label: string;
}

interface Range {
  min: number;
  max: number;
}

/** The smallest and largest of the finite values; null when there are none. */
export function rangeOf(xs: number[]): Range | null {
  const ok = xs.filter((x) => Number.isFinite(x));
  return ok.length === 0 ? null : { min: Math.min(...ok), max: Math.max(...ok) };
}

/** `1.28–1.55`, or one figure when both ends print the same; `n/a` for none. */
export function formatRange(r: Range | null, digits: number): string {
  if (!r) return 'n/a';
  const [lo, hi] = [r.min.toFixed(digits), r.max.toFixed(digits)];
  return lo === hi ? lo : `${lo}–${hi}`;
}

/** One row of the report: ranges over the rounds, per tool and per ratio of the subject to each reference. */
export interface RowSummary {
  config: string;
  gbitPerSec: Record<string, Range | null>;
  cpuSecondsPerGB: Record<string, Range | null>;
  /** Subject ÷ reference, round by round (higher: the subject is faster). */
  rateRatio: Record<string, Range | null>;
  /** Subject ÷ reference CPU s/GB, round by round (lower: the subject spends less per byte). */
  cpuRatio: Record<string, Range | null>;
  /** Each note with the rounds it came from. */
  notes: string[];
}

function cpuPerGB(r: ToolRun): number {
  return r.bytes > 0 ? r.busyCpuSeconds / (r.bytes / 1e9) : NaN;
}

/** Ranges and same-round ratios of one configuration's runs; `subject` is compared with each of `references`. */
export function summarizeRow(config: string, runs: ToolRun[], subject: string, references: string[]): RowSummary {
  const of = (tool: string): ToolRun[] => runs.filter((r) => r.tool === tool);
  const row: RowSummary = { config, gbitPerSec: {}, cpuSecondsPerGB: {}, rateRatio: {}, cpuRatio: {}, notes: [] };
  for (const tool of [...references, subject]) {
    row.gbitPerSec[tool] = rangeOf(of(tool).map((r) => r.bitsPerSecond / 1e9));
    row.cpuSecondsPerGB[tool] = rangeOf(of(tool).map(cpuPerGB));
  }
  for (const ref of references) {
    const pairs = of(subject).flatMap((s) => of(ref).flatMap((r) => (r.round === s.round ? [[s, r] as const] : [])));
    row.rateRatio[ref] = rangeOf(pairs.map(([s, r]) => s.bitsPerSecond / r.bitsPerSecond));
    row.cpuRatio[ref] = rangeOf(pairs.map(([s, r]) => cpuPerGB(s) / cpuPerGB(r)));
  }
  const rounds = new Map<string, number[]>();
  for (const r of runs) for (const n of r.notes) rounds.set(`${r.tool}: ${n}`, [...(rounds.get(`${r.tool}: ${n}`) ?? []), r.round]);
  row.notes = [...rounds].map(([n, rs]) => `${n} (round ${rs.join(', ')})`);
  return row;
}

/** The table, ready to paste: rates, ratios, CPU per GB and CPU ratios, each a range over the rounds. */
export function markdownTable(rows: RowSummary[], tools: ToolColumn[], subject: string): string {
  const refs = tools.filter((t) => t.key !== subject);
  const me = tools.find((t) => t.key === subject)?.label ?? subject;
  const head = [
    'config',
    ...tools.map((t) => `${t.label} Gbit/s`),
    ...refs.map((t) => `${me} ÷ ${t.label}`),
    ...tools.map((t) => `${t.label} CPU s/GB`),
    ...refs.map((t) => `CPU ÷ ${t.label}`),
    'notes',
  ];
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const body = rows.map((r) =>
    line([
      r.config,
      ...tools.map((t) => formatRange(r.gbitPerSec[t.key] ?? null, 1)),
      ...refs.map((t) => formatRange(r.rateRatio[t.key] ?? null, 2)),
      ...tools.map((t) => formatRange(r.cpuSecondsPerGB[t.key] ?? null, 2)),
      ...refs.map((t) => formatRange(r.cpuRatio[t.key] ?? null, 2)),
      r.notes.join('; ').replace(/\|/g, '\\|'),
    ]),
  );
  return [line(head), line(head.map(() => '---')), ...body].join('\n');
}

/** Above this 1-minute load average before the start, the report says the machine was not quiet. */
const QUIET_LOAD = 0.5;

/** What the report says about the run and the machine. */
export interface BenchMeta {
  /** ISO 8601, UTC. */
  date: string;
  cpus: number;
  cpuModel: string;
  /** `uname -sr`'s words: os.type() and os.release(). */
  kernel: string;
  /** 1-minute load average just before the first run. */
  loadAverage: number;
  seconds: number;
  rounds: number;
  /** Longhaul's commit (or version) that ran. */
  longhaul: string;
  tools: { label: string; path: string; version: string }[];
}

/** The lines above the table: date, machine, tools, and whether the machine was quiet. */
export function reportHeader(meta: BenchMeta): string[] {
  const load = meta.loadAverage.toFixed(2);
  const quiet =
    meta.loadAverage > QUIET_LOAD
      ? `**Not quiet**: load average ${load} (1 min) before the start, above ${QUIET_LOAD}: other programs shared the CPUs, so these figures are noise.`
      : `Quiet: load average ${load} (1 min) before the start.`;
  return [
    `${meta.date.slice(0, 10)}, ${meta.cpus} CPUs (${meta.cpuModel}), ${meta.kernel}; loopback, ${meta.rounds} round(s) of ${meta.seconds} s per tool and row, the tools' order rotating each round.`,
    `Tools: ${meta.tools.map((t) => `${t.label} (${t.path})`).join(', ')}; Longhaul ${meta.longhaul}.`,
    quiet,
    "Gbit/s: received bytes over the receiver's seconds, as each tool reports it. CPU s/GB: the whole machine's busy time (/proc/stat) from the client's start to both ends' exit, per GB received. Ratios are Longhaul ÷ that tool in the same round, as min–max over rounds.",
    'Rows with -b are paced (per stream, both tools): the rate is the target, so their CPU s/GB is the finding — what each tool takes from the machine to move the same bytes.',
  ];
}
