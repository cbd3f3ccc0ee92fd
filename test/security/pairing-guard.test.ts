/**
 * Pairing-code guessing is limited per source address: `maxAttempts` wrong codes in a row lock that
 * address out for `lockoutMs`; each wrong code after a lockout locks it again for twice as long, up
 * to `maxLockoutMs`. Other addresses stay free, a right code clears every address, and the table
 * forgets its least recently seen address past `maxAddresses`. Driven on a fake clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PairingGuard } from '../../electron/security/pairing-guard.js';

function guard(maxAddresses = 100): { g: PairingGuard; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { g: new PairingGuard({ maxAttempts: 3, lockoutMs: 1_000, maxLockoutMs: 5_000, maxAddresses }, () => clock.now), clock };
}

describe('pairing guard', () => {
  it('locks an address out after maxAttempts wrong codes, for lockoutMs', () => {
    const { g, clock } = guard();
    assert.equal(g.fail('10.0.0.9'), 0);
    assert.equal(g.fail('10.0.0.9'), 0);
    assert.equal(g.attemptsLeft('10.0.0.9'), 1);
    assert.equal(g.fail('10.0.0.9'), 1_000);
    assert.deepEqual(g.check('10.0.0.9'), { allowed: false, retryInMs: 1_000 });
    clock.now += 999;
    assert.deepEqual(g.check('10.0.0.9'), { allowed: false, retryInMs: 1 });
    clock.now += 1;
    assert.deepEqual(g.check('10.0.0.9'), { allowed: true });
  });

  it('after a lockout each wrong code locks again, twice as long, up to maxLockoutMs', () => {
    const { g, clock } = guard();
    for (let i = 0; i < 3; i++) g.fail('a');
    const next: number[] = [];
    for (let i = 0; i < 4; i++) {
      clock.now += 10_000;
      assert.equal(g.attemptsLeft('a'), 1, 'one wrong code left once it has been locked');
      next.push(g.fail('a'));
    }
    assert.deepEqual(next, [2_000, 4_000, 5_000, 5_000]);
  });

  it('another address is not touched, and a right code clears every address', () => {
    const { g } = guard();
    for (let i = 0; i < 3; i++) g.fail('stranger');
    assert.equal(g.check('stranger').allowed, false);
    assert.deepEqual(g.check('controller'), { allowed: true });
    assert.equal(g.attemptsLeft('controller'), 3);
    g.succeed();
    assert.deepEqual(g.check('stranger'), { allowed: true });
    assert.equal(g.attemptsLeft('stranger'), 3);
  });

  it('warns about an address once', () => {
    const { g } = guard();
    assert.equal(g.firstWarning('a'), true);
    assert.equal(g.firstWarning('a'), false);
    assert.equal(g.firstWarning('b'), true);
  });

  it('remembers at most maxAddresses, forgetting the least recently seen', () => {
    const { g } = guard(2);
    for (let i = 0; i < 3; i++) g.fail('old');
    g.fail('mid');
    g.fail('old'); // seen again: now the most recent
    g.fail('new'); // a third address pushes out 'mid', not 'old'
    assert.equal(g.check('old').allowed, false, 'the locked address is still remembered');
    assert.equal(g.attemptsLeft('mid'), 3, 'the least recently seen was forgotten');
    assert.equal(g.attemptsLeft('new'), 2);
  });
});
