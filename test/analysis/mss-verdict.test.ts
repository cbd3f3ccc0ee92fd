/** The small-MSS rule on figures from real runs: what it calls small, what it leaves alone, what it says. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mssCanExplain, mssFindingData, mssIsSmall, pathMssBytes } from '../../electron/analysis/mss-verdict.js';

describe('small-MSS verdict', () => {
  it('calls --mss 536 on loopback and on Ethernet small', () => {
    assert.equal(mssIsSmall({ sendMssBytes: 524, pmtuBytes: 65_535, requestedBytes: 536 }), true);
    assert.equal(mssIsSmall({ sendMssBytes: 536, pmtuBytes: 1500, requestedBytes: null }), true, 'seed 002: a stack that never sent more than 576 B');
  });

  it("leaves ordinary segments alone: loopback's own 32,741 B, Ethernet's 1,448 B, 1,460 B on a jumbo path", () => {
    assert.equal(mssIsSmall({ sendMssBytes: 32_741, pmtuBytes: 65_535, requestedBytes: null }), false);
    assert.equal(mssIsSmall({ sendMssBytes: 1448, pmtuBytes: 1500, requestedBytes: null }), false);
    assert.equal(mssIsSmall({ sendMssBytes: 1460, pmtuBytes: 9000, requestedBytes: null }), false);
  });

  it('replaces application and congestion verdicts only; a path verdict gets a caveat to check instead', () => {
    assert.deepEqual(['link-limited', 'application-limited', 'congestion-limited', 'window-limited', 'emulator-limited', 'unknown'].map(mssCanExplain), [
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('carries the sizes as figures and the path MTU, the --mss asked and the verdict before it as facts (the words are contract/detail-text/)', () => {
    const d = mssFindingData({ sendMssBytes: 524, pmtuBytes: 1500, requestedBytes: 536 }, 'congestion-limited');
    assert.deepEqual(d.figures, { mss: { value: 524, unit: 'B', source: 'tcp_info' }, pathMss: { value: 1460, unit: 'B', source: 'tcp_info' } });
    assert.deepEqual(d.facts, { mssPath: { pmtuBytes: 1500, requestedBytes: 536, afterVerdict: 'congestion-limited' } });
    assert.equal(pathMssBytes(1500), 1460);
  });
});
