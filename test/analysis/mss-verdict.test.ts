/** The small-MSS rule on figures from real runs: what it calls small, what it leaves alone, what it says. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mssCanExplain, mssCaveat, mssIsSmall, mssSentence, pathMssBytes } from '../../electron/analysis/mss-verdict.js';

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
    assert.match(
      mssCaveat({ sendMssBytes: 524, pmtuBytes: 65_535, requestedBytes: 536 }),
      /Segments were small: at most 524 B \(asked for with --mss\).*run again without --mss/,
    );
  });

  it('says the sizes, the factor and how to check, with the congestion window in segments when that was the bound', () => {
    const f = { sendMssBytes: 524, pmtuBytes: 1500, requestedBytes: 536 };
    assert.equal(pathMssBytes(1500), 1460);
    const s = mssSentence(f, 50e6, { verdict: 'congestion-limited', cwndBytes: 52_400, cwndBitsPerSecond: 60e6 });
    assert.match(s, /at most 524 B \(536 B was requested with --mss\) where the path MTU of 1,500 B allows about 1,460 B/);
    assert.match(s, /2\.8× as many segments/);
    assert.match(s, /held 100 of them \(52,400 B/);
    assert.match(s, /Run again without --mss/);
    assert.match(mssSentence({ ...f, requestedBytes: null }, 50e6, { verdict: 'link-limited', cwndBytes: null, cwndBitsPerSecond: null }), /clamps the MSS/);
  });
});
