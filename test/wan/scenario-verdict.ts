/**
 * What every row of the truth matrix asserts (wan-diagnosis.test.ts, wan-diagnosis-wine.test.ts, and
 * `npm run bench:diagnosis`): a whole result, the expected verdict and one of the row's cases, the figures
 * and notes the row names, the advice topic that must answer it and none of the topics it must not get.
 * Nothing here reads the sentence: the finding is data.
 */
import assert from 'node:assert/strict';
import { adviseResult } from '../../electron/analysis/advice/advise.js';
import type { Diagnosis, LonghaulResult } from '../../electron/contract/result.js';
import type { DiagnosisScenario } from './diagnosis-scenarios.js';

/** What is wrong with the finding `d` for scenario `s` (empty: right). */
export function findingProblems(s: DiagnosisScenario, d: Diagnosis | undefined): string[] {
  if (!d) return ['no diagnosis'];
  const problems: string[] = [];
  if (d.verdict !== s.expected) problems.push(`verdict ${d.verdict}, expected ${s.expected}`);
  if (!d.case || !s.cases.includes(d.case)) problems.push(`case ${d.case ?? 'none'}, expected ${s.cases.join(' or ')}`);
  for (const name of s.figures ?? []) if (!d.figures?.[name]) problems.push(`no ${name} figure`);
  if (s.notes && !s.notes.some((n) => d.notes?.includes(n))) problems.push(`no ${s.notes.join(' or ')} note`);
  return problems;
}

/** The advice topics missing or forbidden for scenario `s` (empty: right). */
export function adviceProblems(s: DiagnosisScenario, r: LonghaulResult): string[] {
  // The advice as the result carries it (written by the controller in namespace A), and recomputed the same.
  const advice = r.advice ?? adviseResult(r, {});
  const problems = advice.some((a) => a.topic === s.adviceTopic)
    ? []
    : [`advice lacks ${s.adviceTopic} (has ${advice.map((a) => a.topic).join(', ') || 'none'})`];
  for (const topic of s.forbiddenTopics ?? []) if (advice.some((a) => a.topic === topic)) problems.push(`${topic} advice given`);
  return problems;
}

/** Each side's data threads as the result recorded them (share of one core, wait for a core as a share of the run): a failing row's why. */
function cpuText(r: LonghaulResult): string {
  if (!r.cpu) return 'not recorded';
  return (['controller', 'responder'] as const)
    .map((side) => {
      const use = r.cpu?.[side];
      if (!use) return `${side} unknown`;
      const threads = (use.threads ?? []).map(
        (t) =>
          `${t.kind} ${t.shareOfOneCore.toFixed(2)} running${t.waitSeconds == null || use.wallSeconds <= 0 ? '' : `, ${(t.waitSeconds / use.wallSeconds).toFixed(2)} waiting`}`,
      );
      return `${side} process ${use.shareOfOneCore.toFixed(2)} of a core over ${use.wallSeconds.toFixed(1)} s${threads.length ? ` (${threads.join('; ')})` : ''}`;
    })
    .join(' | ');
}

/** Assert `r` is what scenario `s` was built to produce; `note` gets the run's one-line figure first, so a failing row still shows it. */
export function assertScenarioVerdict(s: DiagnosisScenario, r: LonghaulResult, note: (line: string) => void): void {
  const d = r.diagnosis?.[0];
  note(`${s.name}: ${((r.total.bitsPerSecond ?? 0) / 1e6).toFixed(2)} Mbit/s, ${d?.case ?? d?.verdict}: ${d?.sentence}`);
  note(`${s.name}: CPU ${cpuText(r)}`);
  assert.equal(r.partial, false, r.partialReason ?? '');
  assert.deepEqual(findingProblems(s, d), [], d?.sentence);
  assert.deepEqual(adviceProblems(s, r), []);
}
