/**
 * Pruning History on real files in a temporary folder: by age and by count, scheduled runs only or
 * all, a run's two files together, unreadable files and links left alone and named, nothing outside
 * the folder touched, a dry run that removes nothing; the rule kept in the data folder, and a
 * garbled rule file refused with nothing removed.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { applyHistoryRetention, readRetention, writeRetention } from '../../electron/app/history-retention.js';
import { HistoryStore } from '../../electron/app/history-store.js';
import { DEFAULT_HISTORY_RETENTION } from '../../electron/contract/history.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { fakeResult } from '../helpers/results.js';
import { tmpDir } from '../helpers/tmp.js';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const DAY = 86_400_000;
const idOf = (n: number): string => (0x20000000 + n).toString(16).padStart(16, '0');
/** A run started `days` before NOW. */
function run(n: number, days: number, schedule?: string): LonghaulResult {
  const r = fakeResult(idOf(n), new Date(NOW.getTime() - days * DAY).toISOString(), 100);
  return schedule ? { ...r, schedule: { name: schedule, slot: n } } : r;
}
const names = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
const idsIn = async (dir: string): Promise<string[]> => (await names(dir)).flatMap((n) => /_([0-9a-f]{16})\.json$/.exec(n)?.[1] ?? []).sort();

describe('history prune', () => {
  it('by age: scheduled runs only by default, every run when asked; a dry run removes nothing', async (t) => {
    const dir = tmpDir(t);
    const store = new HistoryStore(dir);
    await store.save(run(1, 120, 'lab'));
    await store.save(run(2, 91, 'lab'));
    await store.save(run(3, 10, 'lab'));
    await store.save(run(4, 200)); // by hand, old
    const dry = await store.prune(DEFAULT_HISTORY_RETENTION, { now: NOW, dryRun: true });
    assert.equal(dry.summary.removedRuns, 2);
    assert.equal((await names(dir)).length, 4, 'a dry run removes nothing');
    const done = await store.prune(DEFAULT_HISTORY_RETENTION, { now: NOW });
    assert.deepEqual(
      done.removed.map((r) => [r.schedule?.name, r.schedule?.slot]),
      [
        ['lab', 1],
        ['lab', 2],
      ],
      'oldest first',
    );
    assert.deepEqual(done.summary, { ...dry.summary, dryRun: false });
    assert.equal(done.summary.keptRuns, 2);
    assert.deepEqual(await idsIn(dir), [idOf(3), idOf(4)], 'the hand-made run stays: the default prunes scheduled runs only');
    await store.prune({ scope: 'all', maxAgeDays: 90, maxRuns: null }, { now: NOW });
    assert.deepEqual(await idsIn(dir), [idOf(3)]);
  });

  it('by count: the newest N runs in scope stay, with an age limit beside it either one removes', async (t) => {
    const dir = tmpDir(t);
    const store = new HistoryStore(dir);
    for (let i = 1; i <= 6; i++) await store.save(run(i, 7 - i, 'lab')); // run 6 is the newest
    await store.save(run(10, 50)); // by hand
    const r = await store.prune({ scope: 'scheduled', maxAgeDays: null, maxRuns: 4 }, { now: NOW });
    assert.equal(r.summary.removedRuns, 2);
    assert.deepEqual(await idsIn(dir), [idOf(3), idOf(4), idOf(5), idOf(6), idOf(10)]);
    const both = await store.prune({ scope: 'all', maxAgeDays: 2.5, maxRuns: 2 }, { now: NOW });
    assert.deepEqual(await idsIn(dir), [idOf(5), idOf(6)]);
    assert.equal(both.summary.keptRuns, 2);
  });

  it("removes a run's two files together, even when their starts straddle the limit", async (t) => {
    const dir = tmpDir(t);
    const store = new HistoryStore(dir);
    const mine = run(1, 90, 'lab');
    // The local responder's file: 5 ms later on its clock, on the other side of the 90-day line, without the tag.
    const theirs: LonghaulResult = { ...fakeResult(idOf(1), new Date(NOW.getTime() - 90 * DAY + 5).toISOString(), 99), writtenBy: 'responder' };
    await store.save({ ...mine, startedAt: new Date(NOW.getTime() - 90 * DAY - 5).toISOString() });
    await store.save(theirs);
    await store.save(run(2, 1, 'lab'));
    const r = await store.prune(DEFAULT_HISTORY_RETENTION, { now: NOW });
    assert.equal(r.summary.removedRuns, 1);
    assert.equal(r.summary.removedFiles, 2);
    assert.deepEqual(await idsIn(dir), [idOf(2)]);
  });

  it('leaves unreadable files and links alone and names them; nothing outside the folder is touched', async (t) => {
    const root = tmpDir(t);
    const dir = path.join(root, 'results');
    const outside = path.join(root, 'outside');
    await mkdir(outside, { recursive: true });
    const store = new HistoryStore(dir);
    await store.save(run(1, 300, 'lab'));
    const broken = `2025-01-01T00-00-00-000Z_${idOf(2)}.json`;
    await writeFile(path.join(dir, broken), '{ "schema": "longhaul.result/1", "id": ');
    // A valid old scheduled result outside the folder, and a link to it inside, named as History names results.
    await new HistoryStore(outside).save(run(3, 400, 'lab'));
    const [target] = await names(outside);
    const link = `2025-02-01T00-00-00-000Z_${idOf(3)}.json`;
    await symlink(path.join(outside, target!), path.join(dir, link));
    await writeFile(path.join(dir, 'emulator-capacity.json'), '{"bitsPerSecond": 1}');
    const r = await store.prune({ scope: 'all', maxAgeDays: 1, maxRuns: null }, { now: NOW });
    const reasons = Object.fromEntries(r.summary.leftAlone.map((u) => [u.fileName, u.reason]));
    assert.match(reasons[broken] ?? '', /is not JSON|not a valid/);
    assert.match(reasons[link] ?? '', /outside the results folder/);
    assert.deepEqual((await names(dir)).sort(), [broken, link, 'emulator-capacity.json'].sort());
    assert.deepEqual(await names(outside), [target], 'the file the link points to is untouched');
    assert.equal(r.summary.removedRuns, 1);
  });

  it('keeps the rule in the data folder; a garbled rule file is refused naming it, and nothing is removed', async (t) => {
    const dir = tmpDir(t);
    const store = new HistoryStore(dir);
    assert.deepEqual(await readRetention(dir), DEFAULT_HISTORY_RETENTION, 'no file: the default');
    await store.save(run(1, 40, 'lab'));
    await store.save(run(2, 10, 'lab'));
    await writeRetention(dir, { scope: 'scheduled', maxAgeDays: 30, maxRuns: null });
    assert.deepEqual(JSON.parse(await readFile(path.join(dir, 'history-retention.json'), 'utf8')), {
      schema: 'longhaul.history-retention/1',
      scope: 'scheduled',
      maxAgeDays: 30,
      maxRuns: null,
    });
    assert.deepEqual((await store.list()).unreadable, [], 'the rule file is not a result: not listed, not unreadable');
    const r = await applyHistoryRetention(store, { now: NOW });
    assert.equal(r.summary.removedRuns, 1);
    assert.deepEqual(await idsIn(dir), [idOf(2)]);
    await writeFile(
      path.join(dir, 'history-retention.json'),
      '{"schema": "longhaul.history-retention/1", "scope": "everything", "maxAgeDays": 1, "maxRuns": null}',
    );
    await assert.rejects(applyHistoryRetention(store, { now: NOW }), { code: 'LH_ERR_BAD_ARGUMENT', message: /history-retention\.json .* at scope/ });
    assert.deepEqual(await idsIn(dir), [idOf(2)], 'nothing removed under a rule that could not be read');
    await assert.rejects(writeRetention(dir, { scope: 'all', maxAgeDays: 0, maxRuns: null }), { code: 'LH_ERR_BAD_ARGUMENT' });
  });
});
