/**
 * Parsing and formatting of the three kinds of quantity a user types:
 * sizes (bytes), rates (bits per second) and durations (seconds).
 *
 * Conventions, stated once so nobody has to guess:
 * - Sizes use binary multiples, as ttcp, iperf3 and the Windows registry do:
 *   `64K` = `64KB` = `64KiB` = 65,536 bytes; `20M` = 20,971,520 bytes (the
 *   seed's "TcpWindowSize 20 MB (20971520)").
 * - Rates use decimal multiples of bits, as link speeds are quoted:
 *   `4mbit` = `4m` = `4Mbps` = 4,000,000 bit/s; `1g` = 10^9 bit/s.
 * - Durations: `650ms`, `1.3s`, `2m`; a bare number is seconds.
 */
import { ArgumentError } from './errors.js';

const SIZE_MULTIPLIERS: Record<string, number> = {
  '': 1, b: 1,
  k: 1024, kb: 1024, kib: 1024,
  m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2,
  g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3,
  t: 1024 ** 4, tb: 1024 ** 4, tib: 1024 ** 4,
};

const RATE_MULTIPLIERS: Record<string, number> = {
  '': 1, bit: 1, bps: 1,
  k: 1e3, kbit: 1e3, kbps: 1e3,
  m: 1e6, mbit: 1e6, mbps: 1e6,
  g: 1e9, gbit: 1e9, gbps: 1e9,
  t: 1e12, tbit: 1e12, tbps: 1e12,
};

const DURATION_MULTIPLIERS: Record<string, number> = {
  '': 1, s: 1, sec: 1, ms: 1e-3, us: 1e-6, m: 60, min: 60, h: 3600,
};

const QUANTITY = /^\s*([0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)\s*([a-zA-Z]*)\s*$/;

function parseQuantity(text: string, table: Record<string, number>, what: string, flag?: string): number {
  const m = QUANTITY.exec(text);
  const unit = m?.[2]?.toLowerCase() ?? '';
  const mult = m ? table[unit] : undefined;
  if (!m || mult === undefined) {
    const where = flag ? `${flag}: ` : '';
    throw new ArgumentError(`${where}"${text}" is not a valid ${what}`, flag);
  }
  return Number(m[1]) * mult;
}

/** Parse a byte count such as `64K`, `20M`, `650000`. Returns whole bytes. */
export function parseSize(text: string, flag?: string): number {
  const bytes = parseQuantity(text, SIZE_MULTIPLIERS, 'size (e.g. 128K, 20M, 650000)', flag);
  if (!Number.isSafeInteger(Math.round(bytes))) {
    throw new ArgumentError(`${flag ? flag + ': ' : ''}"${text}" is too large`, flag);
  }
  return Math.round(bytes);
}

/** Parse a rate such as `4mbit`, `1g`, `56k`. Returns bits per second. */
export function parseRate(text: string, flag?: string): number {
  return parseQuantity(text, RATE_MULTIPLIERS, 'rate (e.g. 4mbit, 1g, 56k)', flag);
}

/** Parse a duration such as `650ms`, `1.3s`, `10`. Returns seconds. */
export function parseDuration(text: string, flag?: string): number {
  return parseQuantity(text, DURATION_MULTIPLIERS, 'duration (e.g. 10, 1.5s, 650ms)', flag);
}

/** `1234567` → `1,234,567` (for humans only; CSV never gets separators). */
export function groupDigits(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A rate for humans with an explicit decimal unit: `953.21 Mbit/s`. */
export function formatRate(bitsPerSecond: number | null | undefined): string {
  if (bitsPerSecond === null || bitsPerSecond === undefined || !Number.isFinite(bitsPerSecond)) return 'unknown';
  const abs = Math.abs(bitsPerSecond);
  if (abs >= 1e9) return `${(bitsPerSecond / 1e9).toFixed(2)} Gbit/s`;
  if (abs >= 1e6) return `${(bitsPerSecond / 1e6).toFixed(2)} Mbit/s`;
  if (abs >= 1e3) return `${(bitsPerSecond / 1e3).toFixed(1)} kbit/s`;
  return `${bitsPerSecond.toFixed(0)} bit/s`;
}

/** A byte count for humans, decimal units named explicitly: `1.25 GB (1,250,000,000 B)` style. */
export function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (abs >= 1e6) return `${(bytes / 1e6).toFixed(2)} MB`;
  if (abs >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes} B`;
}

/** `54 kbit/s`, `4.0 Mbit/s`, `953 Mbit/s`: two or three significant digits, decimal units. */
export function formatRateShort(bps: number): string {
  const units: [number, string][] = [[1e9, 'Gbit/s'], [1e6, 'Mbit/s'], [1e3, 'kbit/s'], [1, 'bit/s']];
  const [div, name] = units.find(([d]) => Math.abs(bps) >= d) ?? [1, 'bit/s'];
  const v = bps / div;
  return `${Math.abs(v) < 10 ? v.toFixed(1) : v.toFixed(0)} ${name}`;
}

/** `1.30 s`, `20.0 ms`, `34 µs`. */
export function formatRtt(seconds: number): string {
  if (seconds >= 1) return `${seconds.toFixed(2)} s`;
  if (seconds >= 1e-3) return `${(seconds * 1e3).toFixed(1)} ms`;
  return `${(seconds * 1e6).toFixed(0)} µs`;
}
