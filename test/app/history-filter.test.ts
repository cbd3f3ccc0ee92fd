/**
 * History's filter on real files in a temporary folder: by schedule (a name, or the runs started by
 * hand), by time range (the file name's start, so a file out of range is never opened), the 200-row
 * cap applied after the filter, one run stored by both ends counted once, the CSV rows of the runs.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { HistoryStore } from '../../electron/app/history-store.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { fakeResult } from '../helpers/results.js';
import { tmpDir } from '../helpers/tmp.js';

/** A hex id for run `n`. */
const idOf = (n: number): string => (0x10000000 + n).toString(16).padStart(16, '0');
const at = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

function run(n: number, startedAt: string, schedule?: { name: string; slot: number }): LonghaulResult {
  const r = fakeResult(idOf(n), startedAt, 1000 + n);
  return schedule ? { ...r, schedule } : r;
}

describe('history filter', () => {
  it('picks a schedule, the runs started by hand, or all; names the schedules; counts matched and stored runs', async (t) => {
    const store = new HistoryStore(tmpDir(t));
    const t0 = '2026-12-01T08:00:00.000Z';
    for (let i = 0; i < 3; i++) await store.save(run(i, at(t0, i), { name: 'lab', slot: 100 + i }));
    for (let i = 3; i < 5; i++) await store.save(run(i, at(t0, i), { name: 'branch', slot: 200 + i }));
    await store.save(run(5, at(t0, 5)));
    const all = await store.list(null);
    assert.equal(all.matched, 6);
    assert.equal(all.total, 6);
    assert.deepEqual(all.scheduleNames, ['branch', 'lab']);
    assert.deepEqual(
      all.entries.map((e) => e.schedule?.name ?? 'manual'),
      ['manual', 'branch', 'branch', 'lab', 'lab', 'lab'],
      'newest first',
    );
    const lab = await store.list({ schedule: 'lab' });
    assert.deepEqual(
      lab.entries.map((e) => e.schedule),
      [
        { name: 'lab', slot: 102 },
        { name: 'lab', slot: 101 },
        { name: 'lab', slot: 100 },
      ],
    );
    assert.equal(lab.matched, 3);
    assert.equal(lab.total, 6);
    const manual = await store.list({ schedule: null });
    assert.deepEqual(
      manual.entries.map((e) => e.id),
      [idOf(5)],
    );
    const none = await store.list({ schedule: 'gone' });
    assert.equal(none.matched, 0);
    assert.ok(none.scheduleNames.includes('gone'), 'the name asked for stays offered');
  });

  it('takes a time range from the file names: from inclusive, to exclusive, a file out of range never opened', async (t) => {
    const dir = tmpDir(t);
    const store = new HistoryStore(dir);
    for (let h = 0; h < 6; h++) await store.save(run(h, `2026-12-01T0${h}:00:00.000Z`, { name: 'lab', slot: h }));
    // Named like a result of 2026-11-30 but not one: only a listing whose range reaches that day reads it.
    await writeFile(path.join(dir, `2026-11-30T10-00-00-000Z_${idOf(99)}.json`), '{"schema": "longhaul.result/1"}');
    const r = await store.list({ from: '2026-12-01T01:00:00Z', to: '2026-12-01T04:00:00Z' });
    assert.deepEqual(
      r.entries.map((e) => e.startedAt),
      ['2026-12-01T03:00:00.000Z', '2026-12-01T02:00:00.000Z', '2026-12-01T01:00:00.000Z'],
    );
    assert.deepEqual(r.unreadable, [], 'the file out of range was not read');
    assert.equal(r.total, 7, 'the folder holds 7 runs by name');
    const wide = await store.list({ to: '2026-12-01T00:30:00Z' });
    assert.deepEqual(
      wide.entries.map((e) => e.schedule?.slot),
      [0],
    );
    assert.deepEqual(
      wide.unreadable.map((u) => u.fileName),
      [`2026-11-30T10-00-00-000Z_${idOf(99)}.json`],
    );
    assert.match(wide.unreadable[0]!.reason, /not a valid longhaul\.result\/1 result/);
  });

  it('applies the 200-row cap after the filter: old scheduled runs under 250 newer hand-made ones are found', async (t) => {
    const store = new HistoryStore(tmpDir(t));
    const t0 = '2026-12-01T00:00:00.000Z';
    for (let i = 0; i < 5; i++) await store.save(run(i, at(t0, i), { name: 'night', slot: i }));
    for (let i = 5; i < 255; i++) await store.save(run(i, at(t0, 60 + i)));
    const night = await store.list({ schedule: 'night' });
    assert.equal(night.entries.length, 5);
    assert.equal(night.matched, 5);
    const all = await store.list(null);
    assert.equal(all.entries.length, 200, 'at most 200 listed');
    assert.equal(all.matched, 255);
    assert.equal(all.entries[0]!.id, idOf(254), 'the newest first');
    assert.deepEqual(all.scheduleNames, ['night'], 'a schedule whose runs are all past the cap is still offered');
  });

  it("counts a run stored by both ends once, with the controller's schedule, and exports one row per direction", async (t) => {
    const store = new HistoryStore(tmpDir(t));
    const mine = run(1, '2026-12-02T10:00:00.000Z', { name: 'lab', slot: 7 });
    // The local responder's file of the same run: its own clock, no schedule tag.
    const theirs: LonghaulResult = { ...run(1, '2026-12-02T10:00:00.004Z'), writtenBy: 'responder' };
    const bidirTotal = { bytes: 500, sentBytes: 500, seconds: 1, bitsPerSecond: 4000, streamSumBitsPerSecond: 4000, completions: 1 };
    const bidir: LonghaulResult = {
      ...run(2, '2026-12-02T11:00:00.000Z', { name: 'lab', slot: 8 }),
      params: { ...mine.params, direction: 'bidir' },
      directions: { controllerToResponder: bidirTotal, responderToController: { ...bidirTotal, bytes: 400, bitsPerSecond: 3200 } },
    };
    await store.save(mine);
    await store.save(theirs);
    await store.save(bidir);
    const lab = await store.list({ schedule: 'lab' });
    assert.equal(lab.matched, 2);
    assert.equal(lab.total, 2);
    assert.deepEqual(
      lab.entries.map((e) => [e.id, e.writtenBy]),
      [
        [idOf(2), 'controller'],
        [idOf(1), 'controller'],
      ],
    );
    const { rows, runs } = await store.rows({ schedule: 'lab' });
    assert.equal(runs, 2);
    assert.deepEqual(
      rows.map((r) => [r.run_id, r.slot, r.flow, r.received_bytes]),
      [
        [idOf(1), 7, 'controller_to_responder', 1001],
        [idOf(2), 8, 'controller_to_responder', 500],
        [idOf(2), 8, 'responder_to_controller', 400],
      ],
      'oldest first, a bidir run as two rows',
    );
  });
});
