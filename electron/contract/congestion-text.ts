/**
 * The summary's congestion-control line for a run that asked for one (`-C, --congestion`): what each
 * end's sockets used, as they reported it (TCP_CONGESTION read after it was set), or why an end could
 * not use it, in its OS's words.
 */
import type { Door } from './door.js';
import type { LonghaulResult, Side } from './result.js';

/**
 * `Congestion control (--congestion): bbr asked; controller used bbr, responder used bbr`, or null when none was
 * asked; the app names no flag (its Test step has the Congestion control field).
 */
export function congestionLine(r: LonghaulResult, door: Door = 'terminal'): string | null {
  const asked = r.params.congestionControl ?? null;
  if (!asked) return null;
  const parts = (['controller', 'responder'] as Side[]).map((side) => {
    const ends = r.streams.flatMap((s) => [s.send, s.receive]).filter((e) => e?.side === side && e.socket);
    const used = [...new Set(ends.map((e) => e?.socket?.congestionControl).filter((x): x is string => typeof x === 'string'))];
    const why = ends.flatMap((e) => e?.socket?.unavailable ?? []).find((u) => u.field === 'congestionControl')?.reason;
    if (used.length) return `${side} used ${used.join(' and ')}${why ? ` (${why})` : ''}`;
    return `${side}: unknown${why ? ` (${why})` : ' (it did not report its sockets)'}`;
  });
  return `Congestion control${door === 'terminal' ? ' (--congestion)' : ''}: ${asked} asked; ${parts.join(', ')}`;
}
