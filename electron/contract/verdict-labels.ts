/**
 * The one place a limiter verdict gets its words: a short human label for headlines (the Results
 * screen, the reports) and one word for tables (the sweep). Exhaustive over `LimiterVerdict`, so a
 * new verdict cannot reach a screen without a label. The keys themselves are stable: saved results,
 * tests and scripts match on them.
 */
import type { LimiterVerdict } from './result.js';

/** Headline label per verdict, e.g. "Window-limited". */
export const VERDICT_LABELS: Record<LimiterVerdict, string> = {
  'window-limited': 'Window-limited',
  'send-buffer-limited': 'Send-buffer-limited',
  'receiver-limited': 'Receiver-limited',
  'congestion-limited': 'Congestion-limited',
  'loss-limited': 'Loss-limited',
  'application-limited': 'Application-limited',
  'cpu-limited': 'CPU-limited',
  'link-limited': 'Link-limited',
  'emulator-limited': 'Emulator-limited',
  'mss-limited': 'MSS-limited',
  unknown: 'Unknown',
};

/** One word per verdict for tables that count verdicts ("window ×2, link ×1"). */
export const VERDICT_WORDS: Record<LimiterVerdict, string> = {
  'window-limited': 'window',
  'send-buffer-limited': 'send buffer',
  'receiver-limited': 'receiver',
  'congestion-limited': 'congestion',
  'loss-limited': 'loss',
  'application-limited': 'application',
  'cpu-limited': 'CPU',
  'link-limited': 'link',
  'emulator-limited': 'emulator',
  'mss-limited': 'MSS',
  unknown: 'unknown',
};

/** The verdict inside a sentence ("… · window-limited · …"): the label in lower case but for its acronyms; unknown reads "limit unknown". */
export function verdictInline(v: LimiterVerdict): string {
  if (v === 'unknown') return 'limit unknown';
  const label = VERDICT_LABELS[v];
  return /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}
