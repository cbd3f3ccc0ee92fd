/**
 * What every row of the truth matrix asserts (wan-diagnosis.test.ts, wan-diagnosis-wine.test.ts): a whole
 * result, the expected verdict, the sentence's words where the row names them, the advice topic that must
 * answer it and none of the topics it must not get.
 */
import assert from 'node:assert/strict';
import { adviseResult } from '../../electron/analysis/advice/advise.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { DiagnosisScenario } from './diagnosis-scenarios.js';

/** Assert `r` is what scenario `s` was built to produce; `note` gets the run's one-line figure first, so a failing row still shows it. */
export function assertScenarioVerdict(s: DiagnosisScenario, r: LonghaulResult, note: (line: string) => void): void {
  const d = r.diagnosis?.[0];
  note(`${s.name}: ${((r.total.bitsPerSecond ?? 0) / 1e6).toFixed(2)} Mbit/s, ${d?.verdict}: ${d?.sentence}`);
  assert.equal(r.partial, false, r.partialReason ?? '');
  assert.equal(d?.verdict, s.expected, d?.sentence);
  if (s.sentenceMatch) assert.match(d.sentence, s.sentenceMatch);
  // The advice as the result carries it (written by the controller in namespace A), and recomputed the same.
  const advice = r.advice ?? adviseResult(r, {});
  assert.ok(
    advice.some((a) => a.topic === s.adviceTopic),
    `advice topics ${advice.map((a) => `${a.side} ${a.topic}`).join(', ') || 'none'}`,
  );
  for (const topic of s.forbiddenTopics ?? [])
    assert.ok(!advice.some((a) => a.topic === topic), `no ${topic} advice: ${advice.map((a) => a.topic).join(', ')}`);
}
