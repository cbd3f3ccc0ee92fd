/**
 * The diagnosis decides and never words: its rules hand out data (verdict, case, figures, notes, facts) and
 * the detail's words are rendered once, by electron/contract/detail-text/. A rule file that formats a rate,
 * an RTT or a byte count, or writes a `sentence`, is building words again; this fails it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';

const ANALYSIS = path.join(REPO, 'electron', 'analysis');
/**
 * The files that decide a direction's finding, and the setup summaries (window, MSS, pacing: their
 * words are electron/contract/setup-text.ts's) and the group limiter. The advice's OS rows are words by
 * design (commands).
 */
const DECIDING = [
  ...sourceFiles(path.join(ANALYSIS, 'verdicts'), /\.ts$/, []),
  ...['limiter.ts', 'diagnosis.ts', 'emulated-diagnosis.ts', 'emulator-verdict.ts', 'mss-verdict.ts', 'saved-cases.ts'].map((f) => path.join(ANALYSIS, f)),
  ...['window-summary.ts', 'mss-summary.ts', 'pacing-summary.ts'].map((f) => path.join(ANALYSIS, f)),
  // The group limiter (its words: electron/contract/group-text.ts).
  path.join(REPO, 'electron', 'engine', 'group', 'group-aggregate.ts'),
];
/** The formatters whose output is words for people. */
const FORMATTERS = /\b(formatRate|formatRateShort|formatRateTick|formatRtt|formatShare|groupDigits|formatBytes|formatSeconds)\b/;

describe('the diagnosis decides, the wording module words', () => {
  it('no deciding file formats a figure or writes a sentence', () => {
    assert.ok(DECIDING.length >= 19, `found ${DECIDING.length} deciding files`);
    const offenders = DECIDING.flatMap((f) => {
      const code = readFileSync(f, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      return [
        ...(FORMATTERS.test(code) ? [`${path.relative(REPO, f)}: formats a figure`] : []),
        ...(/\bsentence\s*:/.test(code) ? [`${path.relative(REPO, f)}: writes a sentence`] : []),
      ];
    });
    assert.deepEqual(offenders, []);
  });
});
