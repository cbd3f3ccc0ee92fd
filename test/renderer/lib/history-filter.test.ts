/** History's filter row: what it sends (local date-times as UTC instants, the schedule choice) and the count line. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retentionText } from '../../../electron/contract/history.js';
import { ALL_RUNS, countText, filterOf, scheduleChoice } from '../../../renderer/src/lib/history-filter.js';

describe('History filter row', () => {
  it('sends a schedule, the runs by hand, or nothing; local date-times as UTC instants', () => {
    assert.deepEqual(filterOf(ALL_RUNS), { filter: {} });
    assert.deepEqual(filterOf({ ...ALL_RUNS, which: 'manual' }), { filter: { schedule: null } });
    assert.deepEqual(filterOf({ ...ALL_RUNS, which: scheduleChoice('lab.2') }), { filter: { schedule: 'lab.2' } });
    const from = '2026-12-01T08:00';
    assert.deepEqual(filterOf({ ...ALL_RUNS, from }), { filter: { from: new Date(2026, 11, 1, 8, 0).toISOString() } });
    assert.deepEqual(filterOf({ ...ALL_RUNS, from, to: '2026-12-01T07:59' }), { problem: 'From must be before To' });
    assert.deepEqual(filterOf({ ...ALL_RUNS, to: 'soon' }), { problem: 'To is not a date and time' });
  });

  it('counts the runs, and says when the table shows only the newest', () => {
    assert.equal(countText({ matched: 1, total: 1, entries: [{}] as never[] }), '1 run (of 1)');
    assert.equal(
      countText({ matched: 1234, total: 20000, entries: new Array(200) as never[] }),
      '1,234 runs (of 20,000); the newest 200 are listed, the CSV has all 1,234',
    );
  });

  it('says the retention rule in one sentence', () => {
    assert.equal(
      retentionText({ scope: 'scheduled', maxAgeDays: 90, maxRuns: null }),
      'Scheduled runs older than 90 days are removed; runs started by hand are kept.',
    );
    assert.equal(retentionText({ scope: 'all', maxAgeDays: 0.5, maxRuns: 5000 }), 'Runs older than 12 hours or beyond the newest 5,000 are removed.');
    assert.equal(retentionText({ scope: 'all', maxAgeDays: null, maxRuns: null }), 'All runs are kept: no age or count limit.');
  });
});
