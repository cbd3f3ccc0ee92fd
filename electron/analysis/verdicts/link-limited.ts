/**
 * Link-limited, with the queueing delay the path added under load stated: the smoothed RTT while
 * data flowed less the minimum RTT (per stream, median over streams). A bottleneck that queues far
 * more than the path's own round trip is named bufferbloat: the rate is the link's, but every
 * other flow on it waits that long too.
 */
import type { DiagnosisCase, Figures, LinkVia } from '../../contract/finding.js';
import { isLocalPath, type RuleVerdict, type VerdictContext } from './context.js';

/** Queueing of at least this is bufferbloat whatever the path: a person notices 100 ms in every interaction (ITU-T G.114 puts one-way comfort at 150 ms). */
const BLOAT_SECONDS = 0.1;
/** Or at least this many times the minimum RTT, once it is noticeable at all (below): the queue, not the distance, sets the RTT. */
const BLOAT_RTT_FACTOR = 2;
/** A queue under this is not called bufferbloat however short the path (twice a LAN's 0.2 ms is nothing anyone feels). */
const BLOAT_FLOOR_SECONDS = 0.01;

/** Whether the queueing delay is large enough to call bufferbloat. */
function isBufferbloat(queueingSeconds: number, minRttSeconds: number): boolean {
  return queueingSeconds >= BLOAT_SECONDS || (queueingSeconds >= BLOAT_FLOOR_SECONDS && queueingSeconds >= BLOAT_RTT_FACTOR * minRttSeconds);
}

/** Whether this direction's path queued enough under load to call bufferbloat. */
function bloated(c: VerdictContext): boolean {
  const q = c.i.queueingSeconds ?? null;
  const min = c.i.minRttSeconds ?? null;
  return q !== null && min !== null && !isLocalPath(min) && isBufferbloat(q, min);
}

/**
 * A link-limited finding: `why` is the case, `via` how the path was found to be the limit (kept in the facts, since a
 * queue deep enough to be bufferbloat makes that the case whatever the way there); the detail states the queueing.
 */
export function linkFinding(c: VerdictContext, why: DiagnosisCase, via: LinkVia, figures: Figures = {}): RuleVerdict {
  return { verdict: 'link-limited', case: bloated(c) ? 'link-limited/bufferbloat' : why, figures, facts: { linkVia: via } };
}
