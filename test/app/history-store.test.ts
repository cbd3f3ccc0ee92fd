/** History: result files in a folder, newest first, ids checked before they touch a path. */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HistoryStore } from '../../electron/app/history-store.js';
import { resultsDir } from '../../electron/app/data-dir.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { fakeResult } from '../helpers/results.js';

describe('history store', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-history-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('saves, lists newest first, loads', async () => {
    const store = new HistoryStore(path.join(dir, 'results'));
    assert.deepEqual(await store.list(), { entries: [], unreadable: [], matched: 0, total: 0, scheduleNames: [] });
    const a = fakeResult('aaaaaaaaaaaaaaaa', '2026-01-01T10:00:00.000Z', 1000);
    const b = fakeResult('bbbbbbbbbbbbbbbb', '2026-01-02T10:00:00.000Z', 2000);
    await store.save(a);
    await store.save(b);
    await writeFile(path.join(dir, 'results', 'zzz-not-a-result.json'), '{"hello": 1}');
    const { entries: list, unreadable } = await store.list();
    assert.deepEqual(
      list.map((e) => e.id),
      ['bbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaa'],
    );
    assert.equal(list[0]!.bytes, 2000);
    assert.deepEqual(
      unreadable.map((u) => u.fileName),
      ['zzz-not-a-result.json'],
    );
    assert.deepEqual(await store.load('aaaaaaaaaaaaaaaa'), a);
    assert.ok((await readdir(path.join(dir, 'results'))).every((n) => !n.endsWith('.tmp')));
  });

  it('one bad file with the right schema but missing fields is named, and the good ones are still listed', async () => {
    const store = new HistoryStore(path.join(dir, 'bad-one'));
    const good = fakeResult('dddddddddddddddd', '2026-01-03T10:00:00.000Z', 3000);
    await store.save(good);
    const { total: _dropped, ...broken } = fakeResult('eeeeeeeeeeeeeeee', '2026-01-04T10:00:00.000Z', 1);
    await writeFile(path.join(dir, 'bad-one', '2026-01-04_eeeeeeeeeeeeeeee.json'), JSON.stringify(broken));
    const { entries, unreadable } = await store.list();
    assert.deepEqual(
      entries.map((e) => e.id),
      ['dddddddddddddddd'],
    );
    assert.equal(unreadable.length, 1);
    assert.match(unreadable[0]!.reason, /not a valid longhaul\.result\/1 result at total/);
  });

  it('writes through a random temporary name created exclusively: a planted <file>.tmp symlink is not followed', async () => {
    const results = path.join(dir, 'planted');
    const store = new HistoryStore(results);
    const r = fakeResult('ffffffffffffffff', '2026-01-05T10:00:00.000Z', 5);
    await mkdir(results, { recursive: true });
    const victim = path.join(dir, 'victim.txt');
    await writeFile(victim, 'untouched');
    const file = path.join(results, `${r.startedAt.replace(/[:.]/g, '-')}_${r.id}.json`);
    await symlink(victim, `${file}.tmp`);
    await store.save(r);
    assert.equal(await readFile(victim, 'utf8'), 'untouched', "the symlink's target was not written");
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')), r);
  });

  it('refuses ids that are not hex, and says when a result is missing', async () => {
    const store = new HistoryStore(dir);
    await assert.rejects(store.load('../../etc/passwd'), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(store.load('cccccccccccccccc'), { code: 'LH_ERR_NOT_FOUND' });
    await assert.rejects(store.save({ ...fakeResult('x', '2026-01-01T00:00:00Z', 1), id: '../x' } as LonghaulResult), { code: 'LH_ERR_BAD_ARGUMENT' });
  });

  it("lists a run stored by both ends on this PC once, and opens the controller's result of it", async () => {
    const store = new HistoryStore(path.join(dir, 'loopback'));
    const mine = fakeResult('1212121212121212', '2026-01-06T10:00:00.000Z', 700);
    // The local responder's result of the same run: same id, its own clock, written by the other side.
    const theirs: LonghaulResult = { ...mine, startedAt: '2026-01-06T10:00:00.004Z', writtenBy: 'responder', total: { ...mine.total, bytes: 690 } };
    await store.save(mine);
    await store.save(theirs);
    const { entries } = await store.list();
    assert.deepEqual(
      entries.map((e) => [e.id, e.writtenBy]),
      [['1212121212121212', 'controller']],
    );
    assert.equal((await store.load('1212121212121212')).writtenBy, 'controller');
  });

  it("names the real partner of an emulated run, not the proxy's local port", async () => {
    const store = new HistoryStore(path.join(dir, 'emulated'));
    const base = fakeResult('3434343434343434', '2026-01-07T10:00:00.000Z', 10);
    const link = {
      emulator: 'longhaul-proxy' as const,
      preset: 'satellite',
      settings: null,
      chains: { up: [], down: [] },
      modelCeilingBitsPerSec: null,
      bypassToggles: [],
      note: '',
    };
    await store.save({ ...base, responder: { ...base.responder, hostname: 'lab-7', address: '127.0.0.1:40123' }, link: { ...link, target: '10.0.0.5:5211' } });
    const old = fakeResult('5656565656565656', '2026-01-08T10:00:00.000Z', 10);
    await store.save({ ...old, responder: { ...old.responder, hostname: 'lab-8', address: '127.0.0.1:40999' }, link });
    const { entries } = await store.list();
    assert.deepEqual(
      entries.map((e) => e.responder),
      ['lab-8 (through the link emulator)', 'lab-7 (10.0.0.5:5211, through the link emulator)'],
    );
  });

  it('finds the folder: LONGHAUL_DATA_DIR, Electron userData, else XDG', () => {
    assert.equal(resultsDir({ LONGHAUL_DATA_DIR: '/data/lh' }, '/u'), '/data/lh');
    assert.equal(resultsDir({}, '/home/a/.config/Longhaul'), '/home/a/.config/Longhaul/results');
    assert.equal(resultsDir({ XDG_DATA_HOME: '/x' }), '/x/longhaul/results');
    assert.equal(resultsDir({}), path.join(os.homedir(), '.local', 'share', 'longhaul', 'results'));
  });
});
