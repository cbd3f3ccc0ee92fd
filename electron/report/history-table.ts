/**
 * `longhaul history` in a terminal: one line per run, oldest first (the newest ends up just above
 * the prompt), columns padded to their widest cell. Times are this PC's local time, as `ls -l`
 * shows them; the CSV has them in UTC. Text from the files (host names, schedule names) is made
 * printable first: a results folder may be shared, and a terminal acts on escape sequences.
 */
import type { HistoryEntry } from '../contract/history.js';
import { formatRate } from '../contract/units.js';
import { VERDICT_WORDS } from '../contract/verdict-labels.js';
import type { LimiterVerdict } from '../contract/limiter-verdict.js';
import { printable } from '../util/printable.js';

const HEADS = ['started (local time)', 'schedule', 'slot', 'partner', 'proto', 'P', 'direction', 'rate (wall clock)', 'verdict'] as const;
/** The partner's column at most this wide: a long name is cut, the line stays one line. */
const PARTNER_CHARS = 40;

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** `2026-12-07 09:15:05`, local time. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return printable(iso, 30);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

function verdictWords(vs: readonly LimiterVerdict[]): string {
  // A verdict a later version added (or a hand-edited file) is shown as written.
  return vs.length ? vs.map((v) => (VERDICT_WORDS as Record<string, string | undefined>)[v] ?? printable(v, 30)).join(' / ') : '-';
}

function cells(e: HistoryEntry): string[] {
  return [
    localTime(e.startedAt),
    e.schedule ? printable(e.schedule.name, 64) : '-',
    e.schedule ? String(e.schedule.slot) : '-',
    printable(e.responder, PARTNER_CHARS),
    e.protocol,
    String(e.streams),
    e.direction,
    `${formatRate(e.bitsPerSecond)}${e.partial ? ' (partial)' : ''}`,
    verdictWords(e.verdicts),
  ];
}

/** The table of these runs (give them oldest first), header first; '' for none. */
export function formatHistoryTable(entries: readonly HistoryEntry[]): string {
  if (entries.length === 0) return '';
  const rows = [[...HEADS], ...entries.map(cells)];
  const widths = HEADS.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n') + '\n';
}
