/**
 * Sweeps through the app host against a paired responder on 127.0.0.1: one
 * sweep at a time (a second start, or a single run beside it, is
 * LH_ERR_BUSY), progress forwarded, the file in <data dir>/sweeps after
 * every run, an interrupted sweep listed as resumable and resumed into the
 * same file with only the runs it owed, exports, bad ids refused.
 */
import assert from 'node:assert/strict';
import { formatSweepHtml } from '../../electron/report/sweep-html.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events } from '../../electron/contract/api.js';
import type { SweepProgressEvent } from '../../electron/contract/sweep-app.js';
import { runKey } from '../../electron/contract/sweep-plan.js';
import type { SweepFile, SweepPlan } from '../../electron/contract/sweep.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';

describe('app sweep host', { timeout: 60_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  let responder: Responder;
  let port: number;
  const events: SweepProgressEvent[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-sweep-host-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    ({ responder, port } = await startResponder({ security: await responderPairedWith(await backend.trust()) }));
    backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onSweepProgress') events.push(payload as SweepProgressEvent);
    });
  });
  after(async () => {
    await backend.close();
    await responder.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Resolves with the first progress event of sweep `id` that `pred` accepts (bounded). */
  function progress(id: string, pred: (e: SweepProgressEvent) => boolean, ms = 20_000): Promise<SweepProgressEvent> {
    const deadline = Date.now() + ms;
    return within(
      (async () => {
        for (;;) {
          const e = events.find((x) => x.id === id && pred(x));
          if (e) return e;
          if (Date.now() > deadline) throw new Error('no such progress event');
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
      ms + 1000,
      'a sweep progress event',
    );
  }

  it('runs one sweep at a time, saves after every run, stops, lists it as resumable and resumes only what it owed', async () => {
    const plan: SweepPlan = {
      target: { kind: 'peer', host: '127.0.0.1', port },
      base: { streams: 1, bufferBytes: 65_536, windowBytes: null, bytes: null, seconds: 0.5, direction: 'forward', intervalSeconds: 0.5 },
      dimensions: [{ name: 'streams', values: [1, 2, 3] }],
      repeat: 1,
      pauseSeconds: 0.3,
      order: 'sequential',
      seed: 1,
    };
    const started = await backend.call('sweepStart', { plan });
    assert.equal(started.running, true);
    assert.equal(started.cells.length, 3);
    await assert.rejects(backend.call('sweepStart', { plan }), { code: 'LH_ERR_BUSY' });
    await assert.rejects(backend.call('startRun', { host: '127.0.0.1', port, params: plan.base, link: { kind: 'direct' } }), { code: 'LH_ERR_BUSY' });
    assert.equal((await backend.call('listSweeps', null))[0]?.running, true);

    // Stop during the pause after the first run: the file then holds exactly that run.
    await progress(started.id, (e) => e.progress.kind === 'run-done');
    assert.deepEqual(await backend.call('sweepStop', { id: started.id }), { stopping: true });
    const stopped = await progress(started.id, (e) => e.progress.kind === 'stopped');
    assert.equal(stopped.progress.kind === 'stopped' && stopped.progress.reason, 'asked');
    assert.deepEqual(await readdir(path.join(dir, 'sweeps')), [`${started.id}.json`]);

    const [entry] = await backend.call('listSweeps', null);
    assert.deepEqual(
      { ...entry, startedAt: undefined, updatedAt: undefined },
      {
        id: started.id,
        title: started.title,
        startedAt: undefined,
        updatedAt: undefined,
        target: 'peer',
        partner: `127.0.0.1:${port}`,
        swept: ['streams'],
        cells: 3,
        runsDone: entry!.runsDone,
        runsPlanned: 3,
        complete: false,
        running: false,
      },
    );
    assert.ok(entry!.runsDone >= 1 && entry!.runsDone < 3, `${entry!.runsDone} runs done`);
    const view = await backend.call('sweepGet', { id: started.id });
    assert.equal('result' in view.runs[0]!, false, 'the screen gets headlines, not whole results');
    const before = new Set(view.runs.filter((r) => r.status === 'done').map(runKey));

    const resumed = await backend.call('sweepResume', { id: started.id });
    assert.equal(resumed.id, started.id);
    await progress(started.id, (e) => e.progress.kind === 'done');
    const file = JSON.parse(((await backend.call('sweepExport', { id: started.id, format: 'json' })) as { text: string }).text) as SweepFile;
    assert.equal(file.complete, true);
    const after = file.runs.slice(view.runs.length);
    assert.equal(after.length, 3 - before.size, 'only the owed runs');
    assert.ok(after.every((r) => !before.has(runKey(r))));
    assert.ok(
      file.runs.every((r) => r.result !== undefined),
      "the JSON export keeps every run's result",
    );
    await assert.rejects(backend.call('sweepResume', { id: started.id }), { code: 'LH_ERR_BAD_ARGUMENT' });

    const csv = (await backend.call('sweepExport', { id: started.id, format: 'csv' })) as { text: string; fileName: string };
    assert.match(csv.fileName, /^longhaul-sweep-.*\.csv$/);
    assert.equal(csv.text.split('\r\n').filter((l) => l.startsWith('cell,')).length, 3);
    const html = (await backend.call('sweepExport', { id: started.id, format: 'html' })) as { text: string; fileName: string; mimeType: string };
    assert.match(html.fileName, /^longhaul-sweep-.*\.html$/);
    assert.equal(html.mimeType, 'text/html');
    assert.equal(html.text, formatSweepHtml(file), "the app's export is the text longhaul report --format html writes");
  });

  it('refuses ids that are not sweep ids, and unknown sweeps, with stable codes', async () => {
    await assert.rejects(backend.call('sweepGet', { id: '../../etc/passwd' }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('sweepGet', { id: '0123abcd-0000-0000-0000-000000000000' }), { code: 'LH_ERR_NOT_FOUND' });
    assert.deepEqual(await backend.call('sweepStop', { id: '0123abcd-0000-0000-0000-000000000000' }), { stopping: false });
  });
});
