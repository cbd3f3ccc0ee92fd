/**
 * History's channels through the app host, as the UI calls them: a filter checked before it reaches
 * the folder, the CSV of every matching run as a download, the retention rule shown, previewed, kept
 * and applied; and the rule applied by itself shortly after the start and then once a day (fake timers).
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { AppBackend } from '../../electron/app/backend.js';
import { RetentionKeeper, writeRetention } from '../../electron/app/history-retention.js';
import { HistoryStore } from '../../electron/app/history-store.js';
import { fakeResult } from '../helpers/results.js';
import { seedHistory } from '../helpers/history-seed.js';
import { tmpDir } from '../helpers/tmp.js';

function backendIn(dir: string): AppBackend {
  return new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
}

describe('History through the app host', () => {
  it('checks the filter, lists and exports what it picks, previews and keeps a retention rule', async (t) => {
    const dir = tmpDir(t);
    await seedHistory(dir, new Date());
    const backend = backendIn(dir);
    t.after(() => backend.close());
    assert.equal((await backend.call('listHistory', null)).matched, 9, 'null still lists everything');
    await assert.rejects(backend.call('listHistory', { from: 'yesterday' }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('listHistory', { from: '2026-12-02T00:00:00Z', to: '2026-12-01T00:00:00Z' }), {
      code: 'LH_ERR_BAD_ARGUMENT',
      message: /from must be before to/,
    });
    await assert.rejects(backend.call('listHistory', { schedule: 'lab', extra: 1 }), { code: 'LH_ERR_BAD_ARGUMENT' });
    const voice = await backend.call('listHistory', { schedule: 'voice' });
    assert.deepEqual([voice.matched, voice.total, voice.scheduleNames], [2, 9, ['lab', 'voice']]);

    const out = await backend.call('exportHistory', { schedule: 'voice' });
    assert.equal(out.kind, 'download');
    if (out.kind !== 'download') return;
    assert.equal(out.fileName, 'longhaul-history-voice.csv');
    assert.equal(out.mimeType, 'text/csv');
    const rows = parse(out.text, { columns: true, bom: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => [r.schedule, r.protocol]),
      [
        ['voice', 'udp'],
        ['voice', 'udp'],
      ],
    );

    const view = await backend.call('historyRetention', null);
    assert.deepEqual(view.retention, { scope: 'scheduled', maxAgeDays: 90, maxRuns: null });
    assert.equal(view.problem, null);
    await assert.rejects(backend.call('setHistoryRetention', { scope: 'all', maxAgeDays: -1, maxRuns: null }), { code: 'LH_ERR_BAD_ARGUMENT' });
    const rule = { scope: 'scheduled', maxAgeDays: null, maxRuns: 3 } as const;
    const preview = await backend.call('previewHistoryRetention', rule);
    assert.deepEqual([preview.dryRun, preview.removedRuns, preview.keptRuns], [true, 4, 5]);
    assert.equal((await backend.call('listHistory', null)).matched, 9, 'a preview removes nothing');
    const kept = await backend.call('setHistoryRetention', rule);
    assert.deepEqual(kept.retention, rule);
    assert.deepEqual([kept.lastPrune?.dryRun, kept.lastPrune?.removedRuns], [false, 4]);
    const left = await backend.call('listHistory', null);
    assert.deepEqual(
      left.entries.map((e) => e.schedule?.name ?? 'by hand'),
      ['by hand', 'by hand', 'voice', 'lab', 'lab'],
      'the newest 3 scheduled runs and both runs by hand',
    );
  });

  it('applies the kept rule shortly after the start and then once a day', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    const dir = tmpDir(t);
    const store = new HistoryStore(dir);
    const keeper = new RetentionKeeper(store);
    t.after(() => keeper.close());
    await writeRetention(dir, { scope: 'all', maxAgeDays: null, maxRuns: 1 });
    await store.save(fakeResult('aaaaaaaaaaaaaaaa', '2026-12-01T00:00:00.000Z', 1));
    await store.save(fakeResult('bbbbbbbbbbbbbbbb', '2026-12-02T00:00:00.000Z', 1));
    keeper.start();
    t.mock.timers.tick(4_999);
    assert.equal((await keeper.view()).lastPrune, null, 'not before 5 s');
    t.mock.timers.tick(1);
    await keeper.close(); // waits for the pruning the tick started
    assert.equal((await keeper.view()).lastPrune?.removedRuns, 1);
    assert.equal((await readdir(dir)).filter((n) => n.endsWith('_bbbbbbbbbbbbbbbb.json')).length, 1);

    keeper.start();
    t.mock.timers.tick(5_000);
    await store.save(fakeResult('cccccccccccccccc', '2026-12-03T00:00:00.000Z', 1));
    t.mock.timers.tick(86_400_000);
    await keeper.close();
    assert.deepEqual(
      (await store.list()).entries.map((e) => e.id),
      ['cccccccccccccccc'],
      'the daily pass kept the newest run only',
    );
  });
});
