/**
 * Findings as data, checked against the runs recorded on the kernel WAN harness (paths whose limit is
 * known because they were built that way: test/wan/diagnosis-scenarios.ts): each gives its verdict AND its
 * case, with the figures the case needs, and the answer the terminal and the app print is rendered from
 * those (contract/answer-text.ts), short, with no word of the other door and nothing "unknown".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerLines, answerOf, resultLine } from '../../../electron/contract/answer-text.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DIAGNOSIS_CASES } from '../../../electron/contract/finding.js';
import { REPO } from '../../helpers/processes.js';
import { SCENARIOS } from '../../wan/diagnosis-scenarios.js';
import { findingProblems } from '../../wan/scenario-verdict.js';
import type { Diagnosis } from '../../../electron/contract/result.js';
import { diagnosed, recorded } from './recorded.js';

/** The matrix's rows that have a recorded run (test/wan/record-diagnosis-fixtures.ts writes them). */
const RECORDED = SCENARIOS.filter((s) => existsSync(path.join(REPO, 'test', 'analysis', 'fixtures', `${s.name}.json`)));

/** The verdict a case key names. */
function verdictOf(c: string): string {
  return c.slice(0, c.indexOf('/'));
}

describe('diagnosis cases (recorded on the kernel WAN harness)', () => {
  it('the recorded runs cover the matrix but for the rows that need Wine', () => {
    assert.ok(RECORDED.length >= 10, RECORDED.map((s) => s.name).join(', '));
  });

  for (const s of RECORDED) {
    it(`${s.name}: ${s.cases.join(' or ')}${s.figures ? `, with ${s.figures.join(', ')}` : ''}`, () => {
      const { d } = diagnosed(recorded(s.name).result);
      assert.deepEqual(findingProblems(s, d), [], d.sentence);
      assert.equal(verdictOf(d.case ?? ''), d.verdict, 'the case names its verdict');
    });
  }

  it('every case key names a verdict of its own, once', () => {
    assert.equal(new Set(DIAGNOSIS_CASES).size, DIAGNOSIS_CASES.length);
    for (const c of DIAGNOSIS_CASES) assert.match(c, /^[a-z-]+\/[a-z-]+$/);
  });

  it('figures carry a unit and a source, and shares stay within 0–1', () => {
    for (const { name: scenario } of RECORDED) {
      const { d } = diagnosed(recorded(scenario).result);
      for (const [name, f] of Object.entries(d.figures ?? {})) {
        assert.ok(['bit/s', 'B', 's', 'share', 'count', 'cores'].includes(f.unit), `${scenario} ${name}`);
        assert.ok(['tcp_info', 'measured', 'cpu', 'model', 'given', 'emulated'].includes(f.source), `${scenario} ${name}`);
        if (f.unit === 'share') assert.ok(f.value >= 0 && f.value <= 1, `${scenario} ${name} = ${f.value}`);
      }
    }
  });
});

describe('the answer, rendered once from the finding', () => {
  for (const { name: scenario } of RECORDED) {
    it(`${scenario}: three short lines, the verdict named, nothing unknown, each door's own words`, () => {
      const { r, d } = diagnosed(recorded(scenario).result);
      r.advice = diagnosed(r).advice;
      const lines = answerLines(r, 'terminal');
      assert.ok(lines.length >= 2 && lines.length <= 3, lines.join('\n'));
      assert.match(lines[0] ?? '', new RegExp(`^Result: [\\d.]+ [kMG]?bit/s · ${d.verdict === 'cpu-limited' ? 'CPU-limited' : d.verdict}: `));
      for (const line of lines) {
        assert.doesNotMatch(line, /\bunknown\b/, line);
        assert.doesNotMatch(line, /Test (screen|step)/, 'no app words in the terminal');
      }
      // The why is one short sentence (≤ 25 words).
      const why = (lines[0] ?? '').split(': ').slice(1).join(': ');
      assert.ok(why.split(/\s+/).length <= 25, why);
      const app = answerOf(r, 'app');
      assert.doesNotMatch(app.change ?? '', /--[a-z]/, `no CLI flag in the app: ${app.change}`);
      if (app.tryIt) assert.doesNotMatch(app.tryIt, /^longhaul /, 'the app shows only OS commands it has no control for');
    });
  }

  it('a window whose RTT varied is no ceiling: the answer quotes the time it held the sender, never a rate far above the measurement', () => {
    const { d } = diagnosed(recorded('window-w').result);
    const varied: Diagnosis = {
      ...d,
      notes: ['rtt-varied'],
      figures: { ...d.figures, windowRate: { value: 20e9, unit: 'bit/s', source: 'model' }, rwndShare: { value: 0.88, unit: 'share', source: 'tcp_info' } },
    };
    const line = resultLine(varied, 6e9);
    assert.equal(line, '6.00 Gbit/s · window-limited: the window this run asked for held the sender back 88 % of its busy time');
  });

  it('a result saved before cases existed still reads: the verdict, without a why', () => {
    const { r } = diagnosed(recorded('rmem-bbr').result);
    const old: Diagnosis[] = (r.diagnosis ?? []).map(({ case: _case, figures: _figures, ...rest }) => rest);
    r.diagnosis = old;
    assert.match(answerLines(r, 'terminal')[0] ?? '', /^Result: [\d.]+ Mbit\/s · window-limited\.$/);
  });
});
