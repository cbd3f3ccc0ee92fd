/**
 * Results saved before findings carried cases: read back, a direction gets its case and figures where
 * today's rules reach the saved verdict, so the answer line says why; a saved verdict is never changed.
 * The documents are real runs recorded on the kernel WAN harness before cases existed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { withSavedCases } from '../../electron/analysis/saved-cases.js';
import { answerLines } from '../../electron/contract/answer-text.js';
import { readResultFile } from '../../electron/report/result-file.js';
import { recorded } from './verdicts/recorded.js';

describe('results saved before cases', () => {
  it('window-w (the window asked for, 16 KiB over 42 ms): read back with its case, and the answer line says why', async () => {
    const { result } = recorded('window-w');
    assert.equal(result.diagnosis?.[0]?.case, undefined, 'the recorded document predates cases');
    const dir = mkdtempSync(path.join(tmpdir(), 'lh-saved-'));
    try {
      const file = path.join(dir, 'old.json');
      writeFileSync(file, JSON.stringify(result));
      const r = await readResultFile(file);
      assert.equal(r.diagnosis?.[0]?.verdict, 'window-limited');
      assert.equal(r.diagnosis?.[0]?.case, 'window-limited/requested');
      assert.ok(r.diagnosis?.[0]?.figures?.window?.unit === 'B', 'the figures the why quotes');
      assert.match(answerLines(r, 'terminal')[0]!, /window-limited: the window this run asked for allows about [\d.]+ Mbit\/s over the [\d.]+ ms round trip/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rmem-bbr (saved link-limited, read differently by today's rules): left as saved, verdict without a why", () => {
    const { result } = recorded('rmem-bbr');
    const r = withSavedCases(result);
    assert.equal(r.diagnosis?.[0]?.verdict, result.diagnosis?.[0]?.verdict, 'the saved verdict is never changed');
    assert.equal(r.diagnosis?.[0]?.case, undefined);
  });

  it('a result that already has its cases is returned as it is', () => {
    const { result } = recorded('loopback');
    const once = withSavedCases(result);
    assert.equal(once.diagnosis?.[0]?.case, 'cpu-limited/same-pc');
    assert.equal(withSavedCases(once), once);
    assert.equal(result.diagnosis?.[0]?.case, undefined, 'the document read is not changed in place');
  });
});
