/**
 * What `longhaul listen` says about connections it turned away. A line each
 * let a flood write tens of thousands of lines a minute (enough to fill a
 * disk when the output is logged), so: the first connection from an address
 * in an interval is told at once (an operator trying their own PC sees why),
 * the rest are counted and told at the interval's end as one line per
 * address, the busiest addresses first, a bounded number of lines either way.
 *
 *   turned away 127.0.0.2:51234: not TLS
 *   turned away 3,412 more connections from 127.0.0.2 (not TLS) in the last 10 s
 */
import { groupDigits } from '../contract/units.js';
import { plainAddress } from '../util/net.js';
import { printable } from '../util/printable.js';

interface TurnedAwayLogOptions {
  /** Where each line goes (without its newline). */
  write: (line: string) => void;
  /** How often the counts are told, ms. */
  intervalMs?: number;
  /** Addresses told at once, and by name in a summary, per interval; the rest as one total. */
  maxAddresses?: number;
}

const TURNED_AWAY_INTERVAL_MS = 10_000;
const MAX_ADDRESSES = 5;
/** Reasons named per address; more are summed as "other". */
const MAX_REASONS = 3;
const REASON_MAX_CHARS = 120;

export class TurnedAwayLog {
  /** This interval's counts not yet told: address → reason → connections. */
  private counts = new Map<string, Map<string, number>>();
  /** Addresses already told at once this interval. */
  private told = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private readonly intervalMs: number;
  private readonly maxAddresses: number;

  constructor(private readonly o: TurnedAwayLogOptions) {
    this.intervalMs = o.intervalMs ?? TURNED_AWAY_INTERVAL_MS;
    this.maxAddresses = o.maxAddresses ?? MAX_ADDRESSES;
    this.timer = setInterval(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** One connection turned away: `peer` is "address:port" (or a name such as "listener"), `why` the reason. */
  note(peer: string, why: string): void {
    const address = addressOf(peer);
    const reason = printable(why, REASON_MAX_CHARS);
    if (!this.told.has(address) && this.told.size < this.maxAddresses) {
      this.told.add(address);
      this.o.write(`turned away ${printable(peer, 80)}: ${reason}`);
      return;
    }
    let reasons = this.counts.get(address);
    if (!reasons) this.counts.set(address, (reasons = new Map()));
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }

  /** Tell what was counted since the last time, and start a new interval. */
  flush(): void {
    const byAddress = [...this.counts].map(([address, reasons]) => ({ address, reasons, total: sum(reasons.values()) }));
    byAddress.sort((a, b) => b.total - a.total);
    const seconds = Math.round(this.intervalMs / 1000);
    for (const a of byAddress.slice(0, this.maxAddresses)) {
      const more = this.told.has(a.address) ? 'more ' : '';
      this.o.write(
        `turned away ${groupDigits(a.total)} ${more}connection${a.total === 1 ? '' : 's'} from ${a.address} (${describe(a.reasons)}) in the last ${seconds} s`,
      );
    }
    const rest = byAddress.slice(this.maxAddresses);
    if (rest.length) {
      this.o.write(
        `turned away ${groupDigits(sum(rest.map((a) => a.total)))} connections from ${groupDigits(rest.length)} other addresses in the last ${seconds} s`,
      );
    }
    this.counts = new Map();
    this.told = new Set();
  }

  /** Tell what is left and stop the timer. Idempotent. */
  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/** "address:port" → address (IPv4-mapped IPv6 shown as IPv4); anything else made printable as it is. */
function addressOf(peer: string): string {
  const m = /^(.*):\d+$/.exec(peer);
  return printable(m?.[1] ? plainAddress(m[1]) : peer, 80);
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}

/** "not TLS" when there is one reason, else "3,400 not TLS; 12 sent nothing …; 2 other". */
function describe(reasons: Map<string, number>): string {
  const sorted = [...reasons].sort((a, b) => b[1] - a[1]);
  if (sorted.length === 1) return sorted[0]?.[0] ?? '';
  const named = sorted.slice(0, MAX_REASONS).map(([why, n]) => `${groupDigits(n)} ${why}`);
  const other = sum(sorted.slice(MAX_REASONS).map(([, n]) => n));
  return [...named, ...(other ? [`${groupDigits(other)} other`] : [])].join('; ');
}
