/** A schedule's kept state (electron/schedule/schedule-state.ts): read back for the same plan, set aside with the reason otherwise. */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ScheduleState } from '../../electron/schedule/schedule-state.js';
import { tmpDir } from '../helpers/tmp.js';

const PEERS = [
  { host: '192.0.2.7', port: 5211 },
  { host: '192.0.2.8', port: 5211 },
];

describe('schedule state', () => {
  it('gives back the last slots of the same plan; another plan or garbage starts afresh, saying why', async (t) => {
    const dir = tmpDir(t);
    const state = new ScheduleState(dir, 'lab', 900, PEERS);
    assert.deepEqual(await state.read(), { lastSlots: new Map(), note: null }, 'no file: a new schedule, nothing to say');
    await state.write(new Map([['192.0.2.7:5211', 41]]));
    assert.deepEqual((await state.read()).lastSlots, new Map([['192.0.2.7:5211', 41]]));

    const other = await new ScheduleState(dir, 'lab', 60, PEERS).read();
    assert.equal(other.lastSlots.size, 0);
    assert.match(other.note ?? '', /of another plan \(interval or peers changed\): starting afresh/);
    assert.match((await new ScheduleState(dir, 'lab', 900, PEERS.slice(0, 1)).read()).note ?? '', /another plan/);

    await mkdir(path.join(dir, 'schedules'), { recursive: true });
    await writeFile(path.join(dir, 'schedules', 'junk.json'), '{"schema":"longhaul.schedule-state/1","lastSlots":{"x":"y"}}');
    assert.match((await new ScheduleState(dir, 'junk', 900, PEERS).read()).note ?? '', /is not a schedule's state/);
    await writeFile(path.join(dir, 'schedules', 'broken.json'), '{ not json');
    assert.match((await new ScheduleState(dir, 'broken', 900, PEERS).read()).note ?? '', /could not be read .*: starting afresh/);
  });
});
