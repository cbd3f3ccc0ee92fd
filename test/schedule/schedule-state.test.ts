/** A schedule's kept state (electron/schedule/schedule-state.ts): read back for the same plan, set aside with the reason otherwise. */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ScheduleState, slotWhen } from '../../electron/schedule/schedule-state.js';
import { tmpDir } from '../helpers/tmp.js';

const PEERS = [
  { host: '192.0.2.7', port: 5211 },
  { host: '192.0.2.8', port: 5211 },
];
const Q15 = slotWhen({ everySeconds: 900 });

describe('schedule state', () => {
  it('gives back the last slots of the same plan; another plan or garbage starts afresh, saying why', async (t) => {
    const dir = tmpDir(t);
    const state = new ScheduleState(dir, 'lab', Q15, PEERS);
    assert.deepEqual(await state.read(), { lastSlots: new Map(), note: null, plan: null, lastRuns: new Map() }, 'no file: a new schedule, nothing to say');
    await state.write(new Map([['192.0.2.7:5211', 41]]));
    assert.deepEqual((await state.read()).lastSlots, new Map([['192.0.2.7:5211', 41]]));

    const other = await new ScheduleState(dir, 'lab', slotWhen({ cron: '*/15 * * * *' }), PEERS).read();
    assert.equal(other.lastSlots.size, 0);
    assert.match(other.note ?? '', /of another plan \(interval or peers changed\): starting afresh/);
    assert.match((await new ScheduleState(dir, 'lab', Q15, PEERS.slice(0, 1)).read()).note ?? '', /another plan/);

    await mkdir(path.join(dir, 'schedules'), { recursive: true });
    await writeFile(path.join(dir, 'schedules', 'junk.json'), '{"schema":"longhaul.schedule-state/1","lastSlots":{"x":"y"}}');
    assert.match((await new ScheduleState(dir, 'junk', Q15, PEERS).read()).note ?? '', /is not a schedule's state/);
    await writeFile(path.join(dir, 'schedules', 'broken.json'), '{ not json');
    assert.match((await new ScheduleState(dir, 'broken', Q15, PEERS).read()).note ?? '', /could not be read .*: starting afresh/);
  });

  it('reads a state written before cron lines (everySeconds only) as the same interval plan, and keeps the plan that ran', async (t) => {
    const dir = tmpDir(t);
    await mkdir(path.join(dir, 'schedules'), { recursive: true });
    const old = {
      schema: 'longhaul.schedule-state/1',
      name: 'lab',
      everySeconds: 900,
      peers: ['192.0.2.7:5211', '192.0.2.8:5211'],
      lastSlots: { '192.0.2.7:5211': 7 },
      updatedAt: '',
    };
    await writeFile(path.join(dir, 'schedules', 'lab.json'), JSON.stringify(old));
    assert.deepEqual((await new ScheduleState(dir, 'lab', Q15, PEERS).read()).lastSlots, new Map([['192.0.2.7:5211', 7]]));
    const plan = {
      schema: 'longhaul.schedule/1' as const,
      name: 'lab',
      every: '15m',
      peers: ['192.0.2.7:5211'],
      test: { streams: 1, bufferBytes: 131072, windowBytes: null, bytes: null, seconds: 10, direction: 'forward' as const, intervalSeconds: 1 },
      capacity: false,
      paused: false,
    };
    await new ScheduleState(dir, 'lab', Q15, PEERS, plan).write(new Map());
    assert.deepEqual((await new ScheduleState(dir, 'lab', Q15, PEERS).read()).plan, plan);
  });
});
