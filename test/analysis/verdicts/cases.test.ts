/**
 * Findings as data, checked against the runs recorded on the kernel WAN harness (paths whose limit is
 * known because they were built that way: test/wan/diagnosis-scenarios.ts): each gives its verdict AND its
 * case, with the figures the case needs, and the answer the terminal and the app print is rendered from
 * those (contract/answer-text.ts), short, with no word of the other door and nothing "unknown".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerLines, answerOf } from '../../../electron/contract/answer-text.js';
import { DIAGNOSIS_CASES, type DiagnosisCase, type FigureName } from '../../../electron/contract/finding.js';
import type { Diagnosis } from '../../../electron/contract/result.js';
import { diagnosed, recorded } from './recorded.js';

/** Each recorded scenario, the case its built limit must give, and the figures that case must carry. */
const TRUTH: [string, DiagnosisCase, FigureName[]][] = [
  ['loopback', 'cpu-limited/same-pc', ['measured', 'pcBusyShare', 'cores']],
  ['bufferbloat-cubic', 'link-limited/bufferbloat', ['measured', 'queueing', 'minRtt']],
  ['link-shallow', 'link-limited/standing-queue', ['measured', 'queueing', 'minRtt', 'cwndRate']],
  ['loss-cubic', 'loss-limited/random-loss', ['measured', 'lossRatio', 'lossModelRate', 'mss']],
  ['rate-limited-sender', 'application-limited/paced', ['measured', 'pacedRate']],
  ['receiver-cpu', 'receiver-limited/cpu-starved', ['measured', 'readerWaitShare', 'cpuShareOfCore']],
  ['rmem-bbr', 'window-limited/os-receive-buffer', ['measured', 'window', 'windowRate', 'rtt']],
  ['rmem-cubic', 'window-limited/os-receive-buffer', ['measured', 'window', 'windowRate', 'rtt']],
  ['window-w', 'window-limited/requested', ['measured', 'window', 'windowRate', 'rtt']],
  ['wmem-bbr', 'send-buffer-limited/send-buffer', ['measured', 'sndbufShare']],
];

/** The verdict a case key names. */
function verdictOf(c: string): string {
  return c.slice(0, c.indexOf('/'));
}

describe('diagnosis cases (recorded on the kernel WAN harness)', () => {
  for (const [scenario, expected, figures] of TRUTH) {
    it(`${scenario}: ${expected}, with ${figures.join(', ')}`, () => {
      const { d } = diagnosed(recorded(scenario).result);
      assert.equal(d.case, expected, d.sentence);
      assert.equal(verdictOf(d.case ?? ''), d.verdict, 'the case names its verdict');
      for (const name of figures) {
        const f = d.figures?.[name];
        assert.ok(f && Number.isFinite(f.value), `${name} in ${JSON.stringify(d.figures)}`);
      }
    });
  }

  it('every case key names a verdict of its own, once', () => {
    assert.equal(new Set(DIAGNOSIS_CASES).size, DIAGNOSIS_CASES.length);
    for (const c of DIAGNOSIS_CASES) assert.match(c, /^[a-z-]+\/[a-z-]+$/);
  });

  it('figures carry a unit and a source, and shares stay within 0–1', () => {
    for (const [scenario] of TRUTH) {
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
  for (const [scenario] of TRUTH) {
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

  it('a result saved before cases existed still reads: the verdict, without a why', () => {
    const { r } = diagnosed(recorded('rmem-bbr').result);
    const old: Diagnosis[] = (r.diagnosis ?? []).map(({ case: _case, figures: _figures, ...rest }) => rest);
    r.diagnosis = old;
    assert.match(answerLines(r, 'terminal')[0] ?? '', /^Result: [\d.]+ Mbit\/s · window-limited\.$/);
  });
});
