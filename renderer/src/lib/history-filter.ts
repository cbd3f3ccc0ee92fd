/**
 * The History screen's filter row: which runs (all, those started by hand, or one schedule's) and
 * a time range typed as local date-times, turned into the contract's filter (ISO instants, UTC);
 * and the count line over the table.
 */
import type { HistoryFilter, HistoryListing } from '../../../electron/contract/history.js';

/** The filter row as typed. `which`: `all`, `manual`, or `schedule:NAME`; `from`/`to`: a datetime-local value, '' when open. */
export interface HistoryFilterForm {
  which: string;
  from: string;
  to: string;
}

export const ALL_RUNS: HistoryFilterForm = { which: 'all', from: '', to: '' };

/** The `which` value that picks a schedule's runs. */
export function scheduleChoice(name: string): string {
  return `schedule:${name}`;
}

/** The filter a form asks for, or what is wrong with it (a range that ends before it starts). */
export function filterOf(f: HistoryFilterForm): { filter: HistoryFilter } | { problem: string } {
  const filter: HistoryFilter = {};
  if (f.which === 'manual') filter.schedule = null;
  else if (f.which.startsWith('schedule:')) filter.schedule = f.which.slice('schedule:'.length);
  // A datetime-local value has no zone: the Date constructor reads it as this PC's local time.
  for (const key of ['from', 'to'] as const) {
    if (f[key] === '') continue;
    const at = new Date(f[key]);
    if (Number.isNaN(at.getTime())) return { problem: `${key === 'from' ? 'From' : 'To'} is not a date and time` };
    filter[key] = at.toISOString();
  }
  if (filter.from !== undefined && filter.to !== undefined && !(filter.from < filter.to)) return { problem: 'From must be before To' };
  return { filter };
}

function runs(n: number): string {
  return `${n.toLocaleString('en-US')} run${n === 1 ? '' : 's'}`;
}

/** `12 runs (of 540)`, and when the table holds fewer than matched, how many it shows. */
export function countText(l: Pick<HistoryListing, 'matched' | 'total' | 'entries'>): string {
  const head = `${runs(l.matched)} (of ${l.total.toLocaleString('en-US')})`;
  return l.entries.length < l.matched ? `${head}; the newest ${l.entries.length} are listed, the CSV has all ${l.matched.toLocaleString('en-US')}` : head;
}
