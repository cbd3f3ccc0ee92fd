/** The Waiting screen's pairing sentences. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RefusedAttempt } from '../../../electron/contract/api.js';
import { codeValidity, refusedLine, refusedWhen } from '../../../renderer/src/lib/pairing-text.js';

const attempt: RefusedAttempt = {
  kind: 'not-paired',
  at: '2026-01-01T14:02:11Z',
  address: '10.0.0.5',
  name: 'lab-7',
  fingerprint: 'AB12 CD34 EF56 7890',
  count: 1,
};

describe('pairing text', () => {
  it('says how long the code is valid, rounded up', () => {
    assert.equal(codeValidity(10 * 60_000, 0), 'valid for 10 more minutes');
    assert.equal(codeValidity(60_000, 30_000), 'valid for 1 more minute');
    assert.equal(codeValidity(60_000, 90_000), 'valid for 1 more minute', 'never "0 more minutes" while a renewal is on its way');
    assert.equal(codeValidity(null, 0), 'valid until used');
  });

  it('names the PC, its address and fingerprint, and what to do', () => {
    assert.equal(
      refusedLine(attempt),
      'PC lab-7 at 10.0.0.5 (fingerprint AB12 CD34 EF56 7890) tried to connect but is not paired with this PC: give it the code above.',
    );
    assert.equal(
      refusedLine({ ...attempt, kind: 'wrong-code', name: null }),
      'A PC at 10.0.0.5 (fingerprint AB12 CD34 EF56 7890) typed a wrong pairing code: check that it types the code above.',
    );
    assert.match(refusedLine({ ...attempt, kind: 'locked' }), /typed wrong codes too often/);
  });

  it('says when, and how often', () => {
    assert.match(refusedWhen(attempt, 'en-GB'), /^at \d\d:02:11$/);
    assert.match(refusedWhen({ ...attempt, count: 3 }, 'en-GB'), /^3 times, last at \d\d:02:11$/);
  });
});
