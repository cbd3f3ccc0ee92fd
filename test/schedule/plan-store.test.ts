/** The kept plans (electron/schedule/plan-store.ts): checked saves, pause and resume, delete, a broken file listed with its line and never rewritten. */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PlanStore } from '../../electron/schedule/plan-store.js';
import { tmpDir } from '../helpers/tmp.js';

const plan = { schema: 'longhaul.schedule/1', name: 'lab', every: '15m', peers: ['lab-pc'] };

describe('schedule plan store', () => {
  it('keeps checked plans, refuses a taken name unless replacing, pauses, resumes and deletes', async (t) => {
    const store = new PlanStore(tmpDir(t));
    assert.deepEqual(await store.list(), []);
    const kept = await store.save(plan, { replace: false });
    assert.equal(kept.test.seconds, 10, 'defaults filled in');
    await assert.rejects(store.save(plan, { replace: false }), { code: 'LH_ERR_FILE_EXISTS' });
    await store.save({ ...plan, every: '30m' }, { replace: true });
    await assert.rejects(
      store.save({ ...plan, every: '1s' }, { replace: true }),
      (e: Error & { code?: string }) => e.code === 'LH_ERR_BAD_PLAN' && /\(every\)/.test(e.message),
    );
    assert.equal((await store.setPaused('lab', true)).paused, true);
    const listed = await store.list();
    assert.equal(listed.length, 1);
    assert.equal(listed[0]?.plan?.every, '30m');
    assert.equal(listed[0]?.plan?.paused, true);
    assert.equal((await store.setPaused('lab', false)).paused, false);
    await writeFile(path.join(store.dir, 'lab.json'), '{}'); // its state
    await store.remove('lab');
    assert.deepEqual(await store.list(), []);
    await assert.rejects(readFile(path.join(store.dir, 'lab.json')), { code: 'ENOENT' }, 'the state goes with the plan');
    await assert.rejects(store.remove('lab'), { code: 'LH_ERR_NOT_FOUND' });
    await assert.rejects(store.read('../x'), { code: 'LH_ERR_BAD_ARGUMENT' }, 'nothing outside the folder');
  });

  it('a file broken by hand is listed with its line and reason, and pausing it is refused, leaving it as it is', async (t) => {
    const store = new PlanStore(tmpDir(t));
    await store.save(plan, { replace: false });
    const file = store.fileOf('lab');
    const broken = (await readFile(file, 'utf8')).replace('"15m"', '15m');
    await writeFile(file, broken);
    const [e] = await store.list();
    assert.equal(e?.plan, null);
    assert.equal(e?.problem?.line, 4);
    await assert.rejects(
      store.setPaused('lab', true),
      (err: Error & { code?: string }) => err.code === 'LH_ERR_BAD_PLAN' && err.message.includes(`${file}:4:`),
    );
    assert.equal(await readFile(file, 'utf8'), broken, 'not rewritten');
  });
});
