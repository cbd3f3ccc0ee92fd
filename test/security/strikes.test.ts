/**
 * Strikes per address fade: each adds 1 and every strike halves each `halfLifeMs`, so an address that
 * comes back soon weighs more than one seen long ago, and a newcomer weighs 0. The table is bounded at
 * 4,096 addresses: past it, faded addresses (under 0.05) go first, and if every one is still live, the
 * quarter struck longest ago. Driven on a fake clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Strikes } from '../../electron/security/strikes.js';

const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

describe('strikes', () => {
  it('each strike adds 1 and halves every half-life', () => {
    const clock = { now: 0 };
    const s = new Strikes(1_000, () => clock.now);
    assert.equal(s.of('10.0.0.1'), 0);
    s.add('10.0.0.1');
    clock.now = 1_000;
    assert.ok(close(s.of('10.0.0.1'), 0.5));
    s.add('10.0.0.1'); // 0.5 left + 1
    clock.now = 3_000;
    assert.ok(close(s.of('10.0.0.1'), 1.5 / 4), `${s.of('10.0.0.1')}`);
    assert.equal(s.of('10.0.0.2'), 0, 'another address is untouched');
  });

  it('past 4,096 addresses, the faded ones are forgotten first', () => {
    const clock = { now: 0 };
    const s = new Strikes(1_000, () => clock.now);
    for (let i = 0; i < 4_000; i++) s.add(`old-${i}`);
    clock.now = 5_000; // five half-lives: 1/32 < 0.05
    for (let i = 0; i < 97; i++) s.add(`new-${i}`);
    assert.equal(s.size, 97);
    assert.equal(s.of('new-0'), 1);
  });

  it('when every strike is still live, the quarter struck longest ago goes', () => {
    const clock = { now: 0 };
    const s = new Strikes(60_000, () => clock.now);
    for (let i = 0; i <= 4_096; i++) {
      clock.now = i;
      s.add(`a-${i}`);
    }
    assert.equal(s.size, 3_072);
    assert.equal(s.of('a-0'), 0, 'the stalest is forgotten');
    assert.ok(s.of('a-4096') > 0.99, 'the newest is kept');
    assert.ok(s.of('a-1025') > 0.9 && s.of('a-1024') === 0, 'exactly the oldest 1,025 went');
  });
});
