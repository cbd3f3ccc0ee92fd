/**
 * The run's pacing (`--bitrate`): the asked rate, per stream, and how each sending side
 * applied it, from its stream ends (the kernel's SO_MAX_PACING_RATE or Longhaul's own
 * pacing) and what its kernel then reported (TCP_INFO's pacing rate). A side that did not
 * say (an older peer) is `unknown`, never assumed. Its words are contract/setup-text.ts's.
 */
import type { PacingInfo, PacingMechanism, PacingSide, StreamPacing } from '../contract/pacing-info.js';
import type { LonghaulResult, Side } from '../contract/result.js';
import { pacingNote } from '../contract/setup-text.js';

/** One sending stream end as seen here: its side, its pacing (null: the side did not say) and its kernel's pacing rates. */
export interface PacedEnd {
  side: Side;
  pacing: StreamPacing | null;
  /** tcpi_pacing_rate readings over the transfer, bits/s (null: not reported). */
  kernelRates: (number | null | undefined)[];
}

function sideOf(side: Side, ends: PacedEnd[]): PacingSide {
  const told = ends.map((e) => e.pacing).filter((p): p is StreamPacing => p !== null);
  const kinds = new Set(told.map((p) => p.mechanism));
  const only = kinds.size === 1 ? [...kinds][0] : undefined;
  const mechanism: PacingMechanism = told.length < ends.length || kinds.size === 0 ? 'unknown' : (only ?? 'mixed');
  const rates = ends.flatMap((e) => e.kernelRates).filter((r): r is number => typeof r === 'number' && r > 0 && r < 2 ** 63);
  return {
    side,
    mechanism,
    streams: ends.length,
    reason: told.find((p) => p.reason !== null)?.reason ?? null,
    kernelPacingBitsPerSec: rates.length ? Math.max(...rates) : null,
  };
}

/** The pacing of a run asked to pace, or undefined for an unpaced run. */
export function summarizePacing(r: Pick<LonghaulResult, 'params'>, ends: PacedEnd[]): PacingInfo | undefined {
  const asked = r.params.bitrateBitsPerSec ?? null;
  if (asked === null) return undefined;
  const perSide = (['controller', 'responder'] as const).flatMap((side) => {
    const mine = ends.filter((e) => e.side === side);
    return mine.length ? [sideOf(side, mine)] : [];
  });
  const facts: Omit<PacingInfo, 'note'> = {
    requestedBitsPerSec: asked,
    scope: 'per stream',
    totalBitsPerSec: asked * r.params.streams,
    sides: perSide,
  };
  return { ...facts, note: pacingNote(facts, r.params.streams) };
}
