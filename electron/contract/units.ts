/**
 * Quantities people type and read, one copy for every door (the CLI's flags
 * wrap these parsers in electron/util/units.ts; the renderer imports this file):
 *
 * - Sizes use binary multiples, as ttcp, iperf3 and the Windows registry do:
 *   `64K` = `64KB` = `64KiB` = 65,536 bytes; `20M` = 20,971,520 bytes (the
 *   seed's "TcpWindowSize 20 MB (20971520)").
 * - Rates use decimal multiples of bits, as link speeds are quoted:
 *   `4mbit` = `4m` = `4Mbps` = `4 Mbit/s` = 4,000,000 bit/s; `1g` = `1Gbit/s` = 10^9 bit/s.
 * - Durations: `650ms`, `1.3s`, `2m`; a bare number is seconds. Distances: `4000km`, `120m`.
 *
 * Formatting names its unit every time, and says `unknown` for a figure nobody measured.
 */

const SIZE: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};
const RATE: Record<string, number> = {
  '': 1,
  bit: 1,
  bps: 1,
  k: 1e3,
  kbit: 1e3,
  kbps: 1e3,
  m: 1e6,
  mbit: 1e6,
  mbps: 1e6,
  g: 1e9,
  gbit: 1e9,
  gbps: 1e9,
  t: 1e12,
  tbit: 1e12,
  tbps: 1e12,
  // As the app writes rates (formatRate): `4 Mbit/s`, `1Gbit/s`; what it shows must be accepted back.
  'bit/s': 1,
  'kbit/s': 1e3,
  'mbit/s': 1e6,
  'gbit/s': 1e9,
  'tbit/s': 1e12,
};
const DURATION: Record<string, number> = { '': 1, s: 1, sec: 1, ms: 1e-3, us: 1e-6, m: 60, min: 60, h: 3600 };
const DISTANCE: Record<string, number> = { '': 1, m: 1, km: 1e3 };
// The unit may end in `/s` (`Mbit/s`); only the rate table has such units, so sizes and durations still refuse it.
const QUANTITY = /^\s*([0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)\s*([a-zA-Z]*(?:\/s)?)\s*$/;

/** A parsed quantity, or a message saying what is wrong with the text. */
export type Parsed = { ok: true; value: number } | { ok: false; error: string };

/** The examples each kind of quantity is explained with. */
export const EXAMPLES = { size: '128K, 20M, 650000', rate: '100mbit, 1g, 56k', duration: '10, 1.5s, 650ms', distance: '4000km, 120m' } as const;

function parse(text: string, table: Record<string, number>, example: string): Parsed {
  const m = QUANTITY.exec(text);
  const mult = m ? table[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || mult === undefined) {
    if (/^\s*-/.test(text)) return { ok: false, error: 'cannot be negative' };
    return { ok: false, error: text.trim() === '' ? `required, e.g. ${example}` : `"${text.trim()}" is not valid, e.g. ${example}` };
  }
  return { ok: true, value: Number(m[1]) * mult };
}

/** Bytes (whole). */
export function parseSize(text: string): Parsed {
  const r = parse(text, SIZE, EXAMPLES.size);
  if (!r.ok) return r;
  const v = Math.round(r.value);
  return Number.isSafeInteger(v) ? { ok: true, value: v } : { ok: false, error: 'too large' };
}
/** Bits per second. */
export const parseRate = (text: string): Parsed => parse(text, RATE, EXAMPLES.rate);
/** Seconds. */
export const parseDuration = (text: string): Parsed => parse(text, DURATION, EXAMPLES.duration);
/** Metres. */
export const parseDistance = (text: string): Parsed => parse(text, DISTANCE, EXAMPLES.distance);

// One formatter each, made once: `toLocaleString` builds a new ICU formatter on every call, which
// was most of the controller's CPU while it printed live lines (npm run bench:profile).
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const TWO_DECIMALS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const UP_TO_SIX_DECIMALS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** `1234567` → `1,234,567` (for humans only; CSV never gets separators). */
export function groupDigits(n: number): string {
  return GROUPED.format(Math.round(n));
}

/** `953.21 Mbit/s`; `unknown` when the number is not known. */
export function formatRate(bitsPerSecond: number | null | undefined): string {
  if (bitsPerSecond === null || bitsPerSecond === undefined || !Number.isFinite(bitsPerSecond)) return 'unknown';
  const abs = Math.abs(bitsPerSecond);
  if (abs >= 1e12) return `${TWO_DECIMALS.format(bitsPerSecond / 1e12)} Tbit/s`;
  if (abs >= 1e9) return `${(bitsPerSecond / 1e9).toFixed(2)} Gbit/s`;
  if (abs >= 1e6) return `${(bitsPerSecond / 1e6).toFixed(2)} Mbit/s`;
  if (abs >= 1e3) return `${(bitsPerSecond / 1e3).toFixed(1)} kbit/s`;
  return `${bitsPerSecond.toFixed(0)} bit/s`;
}

/** Decimal rate units, largest first: one list for every rate formatter. */
const RATE_UNITS: readonly (readonly [number, string])[] = [
  [1e12, 'Tbit/s'],
  [1e9, 'Gbit/s'],
  [1e6, 'Mbit/s'],
  [1e3, 'kbit/s'],
  [1, 'bit/s'],
];

function rateUnit(bps: number): readonly [number, string] {
  return RATE_UNITS.find(([d]) => Math.abs(bps) >= d) ?? [1, 'bit/s'];
}

/**
 * `54 kbit/s`, `4.0 Mbit/s`, `953 Mbit/s`: two or three significant digits, decimal units.
 * Model bounds with no rate term can be absurd (a window over a loopback RTT): they
 * read `134 Tbit/s`, and past 999 Tbit/s with grouped digits, never a bare 134218.
 */
export function formatRateShort(bps: number): string {
  const [div, name] = rateUnit(bps);
  const v = bps / div;
  return `${Math.abs(v) < 10 ? v.toFixed(1) : groupDigits(Math.round(v))} ${name}`;
}

/**
 * A chart axis's tick: the tick's own digits and no padding (`120 Gbit/s`, `2.5 Mbit/s`,
 * `0 bit/s`), where `formatRate` would write `120.00 Gbit/s`. Chart ticks are round
 * numbers, so nothing is rounded away that the axis meant.
 */
export function formatRateTick(bps: number): string {
  const [div, name] = rateUnit(bps);
  return `${UP_TO_SIX_DECIMALS.format(Number((bps / div).toPrecision(6)))} ${name}`;
}

/** Decimal byte units, named: `1.25 GB`; `unknown` when not known. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return 'unknown';
  const abs = Math.abs(bytes);
  if (abs >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (abs >= 1e6) return `${(bytes / 1e6).toFixed(2)} MB`;
  if (abs >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes} B`;
}

/** Binary byte units for window and buffer sizes, as typed: `64.0 KiB`, `20.00 MiB`. */
export function formatBinaryBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return 'unknown';
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(2)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** `12.3 s`, or `unknown`. */
export function formatSeconds(s: number | null | undefined, digits = 1): string {
  return s === null || s === undefined || !Number.isFinite(s) ? 'unknown' : `${s.toFixed(digits)} s`;
}

/**
 * A time on a run's clock, seconds with two decimals: `0.00`, `1.25`, `-0.40`. A first interval may start a little
 * before the clock's zero (its first byte arrived before the receiver's clock started); a start that rounds to zero
 * reads `0.00`, never `-0.00`.
 */
export function formatClock(t: number): string {
  return (Math.abs(t) < 0.005 ? 0 : t).toFixed(2);
}

/** A configured delay: `650 ms`, `1.5 s`, `2 s`, `0.25 ms` (as typed, not rounded to a display precision). */
export function formatMs(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(v % 1000 === 0 ? 0 : 2)} s` : `${Number(v.toFixed(3))} ms`;
}

/** A share of 0–1 as every answer and detail line writes it: `42 %` (whole percent, a space before the sign). */
export function formatShare(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** `1.30 s`, `20.0 ms`, `34 µs`. */
export function formatRtt(seconds: number): string {
  if (seconds >= 1) return `${seconds.toFixed(2)} s`;
  if (seconds >= 1e-3) return `${(seconds * 1e3).toFixed(1)} ms`;
  return `${(seconds * 1e6).toFixed(0)} µs`;
}

/** bit·m/s for the distance-throughput product: `1.20 Pbit·m/s`. */
export function formatBitMetres(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return 'unknown';
  const units: [number, string][] = [
    [1e18, 'Ebit·m/s'],
    [1e15, 'Pbit·m/s'],
    [1e12, 'Tbit·m/s'],
    [1e9, 'Gbit·m/s'],
    [1e6, 'Mbit·m/s'],
    [1e3, 'kbit·m/s'],
  ];
  for (const [div, name] of units) if (Math.abs(v) >= div) return `${(v / div).toFixed(2)} ${name}`;
  return `${v.toFixed(0)} bit·m/s`;
}

/** A UDP loss share as iperf3 prints it, two significant digits: `0 %`, `0.12 %`, `3.4 %`. */
export function formatLossShare(share: number): string {
  return share === 0 ? '0 %' : `${Number((share * 100).toPrecision(2))} %`;
}

/** A UDP jitter (seconds) in milliseconds as iperf3 prints it: `0.044 ms`. */
export function formatJitter(seconds: number): string {
  return `${(seconds * 1e3).toFixed(3)} ms`;
}

/** A UDP loss as iperf3's Lost/Total column: `3/1,707 (0.18 %)`. */
export function formatLostTotal(lost: number, expected: number): string {
  return `${groupDigits(lost)}/${groupDigits(expected)} (${formatLossShare(expected ? lost / expected : 0)})`;
}
