/** The times `longhaul history` takes: ISO 8601 (local without a zone), a time back from now, an age; each refusal says what was expected. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ageDaysParser, whenParser } from '../../electron/cli/history-times.js';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const when = whenParser(() => NOW);

describe('history times', () => {
  it('reads ISO 8601 dates and times, local time without a zone', () => {
    assert.equal(when('2026-12-01').getTime(), new Date(2026, 11, 1).getTime(), 'a date alone: its local midnight');
    assert.equal(when('2026-12-01T08:30').getTime(), new Date(2026, 11, 1, 8, 30).getTime());
    assert.equal(when('2026-12-01 08:30:15.250').getTime(), new Date(2026, 11, 1, 8, 30, 15, 250).getTime());
    assert.equal(when('2026-12-01T08:30Z').toISOString(), '2026-12-01T08:30:00.000Z');
    assert.equal(when('2026-12-01T08:30:00+01:00').toISOString(), '2026-12-01T07:30:00.000Z');
    assert.equal(when('2026-12-01T08:30:00-0230').toISOString(), '2026-12-01T11:00:00.000Z');
  });

  it('reads a time back from now', () => {
    assert.equal(when('90s').toISOString(), '2026-12-07T11:58:30.000Z');
    assert.equal(when('30m').toISOString(), '2026-12-07T11:30:00.000Z');
    assert.equal(when('2h').toISOString(), '2026-12-07T10:00:00.000Z');
    assert.equal(when('7d').toISOString(), '2026-11-30T12:00:00.000Z');
    assert.equal(when('2w').toISOString(), '2026-11-23T12:00:00.000Z');
    assert.equal(when('1.5d').toISOString(), '2026-12-06T00:00:00.000Z');
  });

  it('refuses what it cannot read, saying what it expected', () => {
    const expected = /^expected an ISO 8601 date or time \(2026-12-01, 2026-12-01T08:00, 2026-12-01T08:00:00Z\) or a time back from now \(30m, 2h, 7d, 2w\)$/;
    for (const bad of ['yesterday', '', '7 days', '12/01/2026', '2026-12-01T8:00', '-2h']) assert.throws(() => when(bad), { message: expected }, bad);
    assert.throws(() => when('2026-02-30'), { message: '2026-02-30 is not a day of the calendar' });
    assert.throws(() => when('2026-13-01'), { message: '2026-13-01 is not a day of the calendar' });
    assert.throws(() => when('2026-12-01T24:00'), { message: '2026-12-01T24:00 has no such time of day' });
  });

  it('reads an age in days for --older-than, within its bounds', () => {
    const age = ageDaysParser(1 / 24, 36_500);
    assert.equal(age('90d'), 90);
    assert.equal(age('36h'), 1.5);
    assert.equal(age('2w'), 14);
    assert.throws(() => age('90'), { message: 'expected an age with its unit (30m, 2h, 7d, 2w, 90d)' });
    assert.throws(() => age('10m'), { message: 'give between 1 h and 36500 days' });
  });
});
