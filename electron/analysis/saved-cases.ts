/**
 * Results saved before findings carried their case (verdict/sub-case) and figures render their verdict
 * without a why: the answer's words are built from the case. The diagnosis is pure over the result, so
 * an older result is re-diagnosed when read, and a direction takes the case, figures, side and notes only
 * where the re-diagnosis reaches the verdict the result was saved with: a saved verdict is never changed,
 * and a direction the rules now read differently stays as saved (verdict without a why).
 *
 * A saved verdict or case this version does not know (a newer Longhaul's, or a hand edit) is read as
 * `unknown` without a case: every report then renders it as unknown instead of failing on it.
 */
import { DIAGNOSIS_CASES } from '../contract/finding.js';
import type { LonghaulResult } from '../contract/result.js';
import { VERDICT_LABELS } from '../contract/verdict-labels.js';
import { diagnoseResult } from './diagnosis.js';

const CASES: ReadonlySet<string> = new Set(DIAGNOSIS_CASES);

/** `r` with each finding's verdict and case as this version knows them (unknown ones: `unknown`, no case). */
function knownFindings(r: LonghaulResult): LonghaulResult {
  const saved = r.diagnosis ?? [];
  const known = (d: (typeof saved)[number]): boolean => Object.hasOwn(VERDICT_LABELS, d.verdict) && (d.case === undefined || CASES.has(d.case));
  if (saved.every(known)) return r;
  const diagnosis = saved.map((d) => {
    if (known(d)) return d;
    const { case: _dropped, ...rest } = d;
    return Object.hasOwn(VERDICT_LABELS, d.verdict) ? rest : { ...rest, verdict: 'unknown' as const };
  });
  return { ...r, diagnosis };
}

/** `r` with each case-less diagnosis filled in where today's rules agree with its verdict (a new object; `r` untouched). */
export function withSavedCases(read: LonghaulResult): LonghaulResult {
  const r = knownFindings(read);
  const saved = r.diagnosis ?? [];
  if (!saved.some((d) => d.case === undefined)) return r;
  let again: ReturnType<typeof diagnoseResult>;
  try {
    again = diagnoseResult(r, r.pathRate?.bitsPerSecond ?? null);
  } catch {
    return r; // a result too old or too trimmed for today's rules: shown as it was saved
  }
  const diagnosis = saved.map((d) => {
    if (d.case !== undefined) return d;
    const now = again.find((x) => x.direction === d.direction);
    if (!now || now.verdict !== d.verdict) return d;
    return {
      ...d,
      case: now.case,
      figures: now.figures,
      ...(now.side ? { side: now.side } : {}),
      ...(now.notes ? { notes: now.notes } : {}),
      ...(now.facts ? { facts: now.facts } : {}),
    };
  });
  return { ...r, diagnosis };
}
