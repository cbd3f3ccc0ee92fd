/**
 * The result documents recorded on the kernel WAN harness (test/analysis/fixtures/*.json, written by
 * test/wan/record-diagnosis-fixtures.ts from the scenarios in test/wan/diagnosis-scenarios.ts), and
 * their diagnosis and advice computed afresh by today's rules.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { adviseResult } from '../../../electron/analysis/advice/advise.js';
import { diagnoseResult } from '../../../electron/analysis/diagnosis.js';
import type { Advice } from '../../../electron/contract/advice.js';
import type { Diagnosis, LonghaulResult } from '../../../electron/contract/result.js';
import { REPO } from '../../helpers/processes.js';

/** One recorded run: which scenario, how the path was built, when, and the controller's result. */
interface Recorded {
  recorded: { scenario: string; built: string; at: string };
  result: LonghaulResult;
}

/** A fresh copy of a recorded result (tests may change it). */
export function recorded(name: string): Recorded {
  return JSON.parse(readFileSync(path.join(REPO, 'test', 'analysis', 'fixtures', `${name}.json`), 'utf8')) as Recorded;
}

/** The result re-diagnosed and advised by today's rules; `d` is its one direction's diagnosis. */
export function diagnosed(r: LonghaulResult): { r: LonghaulResult; d: Diagnosis; advice: Advice[] } {
  r.diagnosis = diagnoseResult(r);
  const d = r.diagnosis[0]!;
  const advice = adviseResult(r, {});
  return { r, d, advice };
}
