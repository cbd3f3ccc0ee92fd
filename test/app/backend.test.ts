/**
 * The app host on the real engine: a short 2-stream run against a responder
 * on 127.0.0.1 through the contract calls, its events, History and export;
 * bad requests rejected with stable codes.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events, LiveSample, RunEnded } from '../../electron/contract/api.js';
import { renderReport } from '../../electron/report/render.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';

describe('app backend', { timeout: 40_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  let responder: Responder;
  let port: number;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-backend-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    ({ responder, port } = await startResponder({ security: await responderPairedWith(await backend.trust()) }));
  });
  after(async () => {
    await backend.close();
    await responder.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs, streams samples, stores the result and exports it as JSON', async () => {
    const samples: LiveSample[] = [];
    const phases: string[] = [];
    let ended: (e: RunEnded) => void;
    const end = new Promise<RunEnded>((r) => (ended = r));
    const unsubscribe = backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onSample') samples.push(payload as LiveSample);
      if (name === 'onPhase') phases.push((payload as { phase: string }).phase);
      if (name === 'onRunEnd') ended(payload as RunEnded);
    });
    const params = { streams: 2, bufferBytes: 65536, windowBytes: null, bytes: null, seconds: 1, direction: 'forward' as const, intervalSeconds: 0.2 };
    const { runId } = await backend.call('startRun', { host: '127.0.0.1', port, params, link: { kind: 'direct' }, distanceMeters: 4_000_000 });
    await assert.rejects(backend.call('startRun', { host: '127.0.0.1', port, params, link: { kind: 'direct' } }), { code: 'LH_ERR_BUSY' });
    const e = await within(end, 20_000, 'the run');
    unsubscribe();
    assert.equal(e.runId, runId);
    assert.equal(e.result.partial, false, e.result.partialReason ?? '');
    assert.equal(e.result.streams.length, 2);
    assert.ok(e.result.total.bytes > 0);
    assert.deepEqual(phases.slice(0, 3), ['hello', 'params', 'streams']);
    assert.ok(samples.some((s) => s.side === 'responder') && samples.some((s) => s.side === 'controller'));
    // The control channel's pings ride on the controller's samples (the Run screen's RTT where no OS gives one):
    // idle ones before the data, and one every 500 ms under load, so a 1 s run has both by its last sample.
    const control = samples.filter((s) => s.control).at(-1)?.control;
    assert.ok(control && control.idleMs !== null && control.idleMs > 0, `idle ping: ${JSON.stringify(control)}`);
    assert.ok(control.nowMs !== null && control.nowMs > 0, `ping under load: ${JSON.stringify(control)}`);
    assert.ok(
      samples.every((s) => !s.control || s.side === 'controller'),
      "only the controller's samples carry it",
    );
    // The last responder sample holds what arrived: the result's receiver bytes.
    const lastRx = samples.filter((s) => s.side === 'responder').at(-1)!;
    assert.equal(
      lastRx.streams.reduce((a, s) => a + s[1], 0),
      e.result.total.bytes,
    );

    // The distance typed on the Test screen is part of the stored run, so it is there when the run is reopened.
    assert.deepEqual(e.result.distance, { meters: 4_000_000, source: 'given' });
    assert.ok(e.savedPath && e.savedPath.startsWith(dir));
    assert.deepEqual(JSON.parse(await readFile(e.savedPath!, 'utf8')), e.result);
    const list = await backend.call('listHistory', null);
    assert.deepEqual(
      list.entries.map((h) => h.id),
      [e.result.id],
    );
    const out = await backend.call('exportResult', { id: e.result.id, format: 'json' });
    assert.equal(out.kind, 'download');
    if (out.kind === 'download') assert.deepEqual(JSON.parse(out.text), e.result);
    // The report formats are the CLI's `longhaul report` text of the same result, byte for byte.
    for (const format of ['csv', 'console', 'ttcp'] as const) {
      const x = await backend.call('exportResult', { id: e.result.id, format });
      assert.equal(x.kind, 'download');
      if (x.kind === 'download') assert.equal(x.text, renderReport(e.result, format), format);
      assert.deepEqual(
        await backend.call('reportText', { id: e.result.id, format }),
        x.kind === 'download' ? { fileName: x.fileName, mimeType: x.mimeType, text: x.text } : null,
      );
    }
    const log = await backend.call('reportText', { id: e.result.id, format: 'console' });
    assert.match(log.fileName, /\.log$/);
    assert.ok(log.text.includes(` ${(e.result.total.bytes / 1e6).toFixed(6)} `), "the PetaBumps total (MEG) is the run's bytes");
    // A direct run has no proxy to bypass.
    await assert.rejects(backend.call('setBypass', { runId, bypass: true }), { code: 'LH_ERR_NOT_FOUND' });
  });

  it('rejects bad requests with LH_ERR_BAD_ARGUMENT, naming the field', async () => {
    const good = { streams: 1, bufferBytes: 1024, windowBytes: null, bytes: null, seconds: 1, direction: 'forward', intervalSeconds: 1 };
    await assert.rejects(
      backend.call('startRun', { host: '127.0.0.1', port, params: { ...good, streams: 0 }, link: { kind: 'direct' } }),
      (e: Error & { code: string }) => e.code === 'LH_ERR_BAD_ARGUMENT' && /params\.streams/.test(e.message),
    );
    await assert.rejects(backend.call('checkPeer', { host: 'a b', port: 1 }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('loadResult', { id: '../../x' }), { code: 'LH_ERR_BAD_ARGUMENT' });
    const settings = (await backend.call('linkPresets', null)).find((p) => p.name === 'satellite')!.settings;
    await assert.rejects(
      backend.call('startRun', {
        host: '127.0.0.1',
        port,
        params: good,
        link: { kind: 'proxy', preset: 'satellite', settings: { ...settings, lossRatio: 0.9 } },
      }),
      (e: Error & { code: string }) => e.code === 'LH_ERR_BAD_ARGUMENT' && /lossRatio/.test(e.message),
    );
    await assert.rejects(
      backend.call('startRun', { host: '127.0.0.1', port, params: good, link: { kind: 'proxy', preset: null, settings: { ...settings, delayMs: -1 } } }),
      { code: 'LH_ERR_BAD_ARGUMENT' },
    );
    await assert.rejects(backend.call('reportText', { id: 'abcdef0123456789', format: 'pdf' }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('setBypass', { runId: 'x', bypass: 'yes' }), { code: 'LH_ERR_BAD_ARGUMENT' });
  });

  it('hosts a responder the UI can start and stop', async () => {
    const s = await backend.call('startResponder', { port: 0, bind: '127.0.0.1' });
    assert.equal(s.state, 'listening');
    assert.ok(s.port! > 0);
    const check = await backend.call('checkPeer', { host: '127.0.0.1', port: s.port! });
    assert.equal(check.verdict, 'reachable');
    const stopped = await backend.call('stopResponder', null);
    assert.equal(stopped.state, 'stopped');
    assert.equal((await backend.call('checkPeer', { host: '127.0.0.1', port: s.port! })).verdict, 'refused');
  });
});
