/**
 * The send path (send-path.ts) in words: the one line the terminal, `--explain`, the reports and the
 * app's Results print when `-Z` was asked or any sending end used sendfile(2).
 */
import type { Door } from './door.js';
import type { LonghaulResult, Side } from './result.js';
import { ZERO_COPY_FIELD, type SendPath } from './send-path.js';

/** What a side's sending ends say: how many used each path, and the first reason -Z was not honoured. */
interface SideSendPaths {
  side: Side;
  sendfile: number;
  copy: number;
  /** Ends that did not say (an older Longhaul). */
  unknown: number;
  reason: string | null;
}

function sideSendPaths(r: LonghaulResult, side: Side): SideSendPaths | null {
  const views = r.streams.map((s) => s.send).filter((v) => v !== null && v.side === side);
  if (views.length === 0) return null;
  const count = (p: SendPath | undefined): number => views.filter((v) => v?.sendPath === p).length;
  const reason = (r.unavailable ?? []).find((u) => u.side === side && u.field === ZERO_COPY_FIELD)?.reason ?? null;
  return { side, sendfile: count('sendfile'), copy: count('copy'), unknown: count(undefined), reason };
}

function sideWords(p: SideSendPaths): string {
  const total = p.sendfile + p.copy + p.unknown;
  if (p.sendfile === total) return `${p.side} sendfile(2) on ${total === 1 ? 'its 1 stream' : `all ${total} streams`}`;
  const parts = [p.sendfile ? `sendfile(2) on ${p.sendfile}` : null, p.copy ? `copied on ${p.copy}` : null, p.unknown ? `unknown on ${p.unknown}` : null];
  const why = p.reason ? ` (${p.reason})` : '';
  return `${p.side} ${parts.filter((x) => x !== null).join(', ')} of ${total}${why}`;
}

/**
 * The line the terminal, `--explain`, the reports and the app's Results print when `-Z` was asked or any end
 * used sendfile: `Zero-copy sender (-Z): controller sendfile(2) on all 4 streams` (the app names its checkbox,
 * not the flag); null otherwise (every end copied, as asked).
 */
export function zeroCopyLine(r: LonghaulResult, door: Door = 'terminal'): string | null {
  const sides = (['controller', 'responder'] as const).map((side) => sideSendPaths(r, side)).filter((p): p is SideSendPaths => p !== null);
  if (!r.params.zeroCopy && !sides.some((p) => p.sendfile > 0)) return null;
  if (sides.length === 0) return null;
  return `${door === 'terminal' ? 'Zero-copy sender (-Z)' : 'Zero-copy sender'}: ${sides.map(sideWords).join('; ')}`;
}
