/**
 * Schedules in the app (electron/app/schedule-host.ts) against a paired responder on 127.0.0.1: a
 * plan kept from the screen runs at once (its first round) and lands in History tagged; the listing
 * shows its last test per peer with the verdict and when the next round is due; pause and delete go
 * through the files; a bad plan is refused naming the field; a scheduled test waits while the user's
 * own run uses the PC and the user's start is refused while a scheduled test runs; a second app on
 * the same data folder does not run the schedules and says who does; a failed test is a notice.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events } from '../../electron/contract/api.js';
import type { ScheduleListing, ScheduleNotice } from '../../electron/contract/schedule-app.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';

const PLAN = { schema: 'longhaul.schedule/1', name: 'lab', every: '1h', peers: [] as string[], test: { seconds: 0.5, intervalSeconds: 0.5 } };

describe('app schedule host', { timeout: 90_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  let responder: Responder;
  let port: number;
  const updates: { listing: ScheduleListing; notice: ScheduleNotice | null }[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-schedule-host-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    ({ responder, port } = await startResponder({ security: await responderPairedWith(await backend.trust()) }));
    backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onSchedules') updates.push(payload as Events['onSchedules']['payload']);
    });
  });
  after(async () => {
    await backend.close();
    await responder.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The first update `pred` accepts, bounded. */
  async function update(what: string, pred: (u: (typeof updates)[number]) => boolean, ms = 20_000): Promise<(typeof updates)[number]> {
    return within(
      (async () => {
        for (;;) {
          const u = updates.find(pred);
          if (u) return u;
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
      ms,
      what,
    );
  }

  it('a plan kept from the screen runs, lands in History tagged, and lists its last test per peer; pause and delete; bad plans refused', async () => {
    const peer = `127.0.0.1:${port}`;
    const bad = await backend.call('saveSchedule', { plan: { ...PLAN, peers: [peer], every: '2s' }, editing: null }).catch((e: Error & { code?: string }) => e);
    assert.ok(bad instanceof Error && (bad as { code?: string }).code === 'LH_ERR_BAD_PLAN' && /\(every\)/.test(bad.message), String(bad));

    const listed = await backend.call('saveSchedule', { plan: { ...PLAN, peers: [peer] }, editing: null });
    assert.equal(listed.notRunning, null, 'this app runs the schedules');
    assert.equal(listed.schedules[0]?.name, 'lab');
    const done = await update('the first round', (u) => u.listing.schedules[0]?.lastRuns.length === 1);
    const view = done.listing.schedules[0];
    const last = view?.lastRuns[0];
    assert.equal(view?.state, 'running');
    assert.equal(last?.peer, peer);
    assert.equal(last?.outcome, 'ok', JSON.stringify(last));
    assert.ok((last?.bitsPerSecond ?? 0) > 0 && (last?.verdicts.length ?? 0) >= 1);
    const next = (await backend.call('listSchedules', null)).schedules[0]?.nextAtMs ?? 0;
    assert.ok(next > Date.now() && next <= Date.now() + 3600_000 + 30_000, 'the next round within the hour (plus its offset)');
    const history = await backend.call('listHistory', null);
    assert.ok(
      history.entries.some((e) => e.id === last?.resultId && e.schedule?.name === 'lab'),
      'in History, tagged',
    );

    const paused = await backend.call('pauseSchedule', { name: 'lab', paused: true });
    assert.equal(paused.schedules[0]?.state, 'paused');
    assert.equal(paused.schedules[0]?.nextAtMs, null);
    assert.equal(paused.schedules[0]?.lastRuns.length, 1, 'what it did stays shown while paused');
    const gone = await backend.call('deleteSchedule', { name: 'lab' });
    assert.deepEqual(gone.schedules, []);
    await assert.rejects(backend.call('deleteSchedule', { name: '../x' }), { code: 'LH_ERR_BAD_ARGUMENT' });
  });

  it('a failed test is a notice; a second app on the same data folder says who runs the schedules', async () => {
    updates.length = 0;
    await backend.call('saveSchedule', { plan: { ...PLAN, name: 'gone', peers: ['127.0.0.1:1'] }, editing: null });
    const failed = await update('a failed test told', (u) => u.notice?.kind === 'failed');
    assert.equal(failed.notice?.name, 'gone');
    assert.match(failed.notice?.code ?? '', /^LH_ERR_/);
    assert.equal(failed.listing.schedules.find((s) => s.name === 'gone')?.lastRuns[0]?.outcome, 'failed');
    await backend.call('deleteSchedule', { name: 'gone' });

    const other = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust2'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    try {
      const l = await other.call('listSchedules', null);
      assert.match(l.notRunning ?? '', /this PC's schedules are run by the app/);
    } finally {
      await other.close();
    }
  });

  it(
    'a result that cannot be saved (a full disk) is a notice and counted, and the schedule goes on',
    { skip: process.getuid?.() !== 0 ? 'needs root to mount a small tmpfs' : false },
    async () => {
      const mnt = await mkdtemp(path.join(os.tmpdir(), 'longhaul-full-'));
      const { execFileSync } = await import('node:child_process');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]);
      const full = new AppBackend({ mode: 'browser', dataDir: mnt, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
      const seen: (typeof updates)[number][] = [];
      full.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
        if (name === 'onSchedules') seen.push(payload as Events['onSchedules']['payload']);
      });
      try {
        // Filled but for 12 KiB: the plan and its state fit, a result (tens of KiB) does not.
        const { writeFile: write } = await import('node:fs/promises');
        await write(path.join(mnt, 'filler'), Buffer.alloc(244 * 1024));
        await full.call('saveSchedule', { plan: { ...PLAN, name: 'full', peers: [`127.0.0.1:${port}`] }, editing: null });
        const told = await within(
          (async () => {
            for (;;) {
              const u = seen.find((x) => x.notice?.kind === 'not-saved');
              if (u) return u;
              await new Promise((r) => setTimeout(r, 50));
            }
          })(),
          20_000,
          'a not-saved notice',
        );
        assert.match(told.notice?.saveError ?? '', /ENOSPC|disk is full|space/i);
        assert.match(await full.schedules.metrics.text(), /^longhaul_failed_saves_total\{schedule="full"\} 1$/m);
      } finally {
        await full.close();
        execFileSync('umount', ['-l', mnt]);
        await rm(mnt, { recursive: true, force: true });
      }
    },
  );
});
