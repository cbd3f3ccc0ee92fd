/**
 * UDP ramps through the app host (electron/app/ramp-host.ts) against a paired responder on
 * 127.0.0.1: one at a time and never beside a run or a sweep (LH_ERR_BUSY), each step's start and
 * end forwarded, the file in <data dir>/ramps rewritten after every step, Stop ending it as
 * `stopped` with the step run kept, exports (the console table and answer, the JSON with every
 * step's result), a restarted app reading it back, a file cut off by a crash listed as such, an
 * unreachable partner ending the ramp as `failed`, and what a ramp cannot take refused.
 * The found answer through the link emulator is the app's flow in test/e2e/udp-ramp-flow.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events } from '../../electron/contract/api.js';
import type { ResultParams } from '../../electron/contract/result.js';
import type { RampFile, RampView, StartRampRequest } from '../../electron/contract/udp-ramp-app.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { findPreset } from '../../electron/proxy/presets.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';

const PARAMS: ResultParams = {
  streams: 1,
  bufferBytes: 1460,
  windowBytes: null,
  bytes: null,
  seconds: 0.3,
  direction: 'forward',
  intervalSeconds: 0.3,
  bitrateBitsPerSec: 1e6,
  protocol: 'udp',
};

describe('app ramp host', { timeout: 60_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  let responder: Responder;
  let port: number;
  const events: RampView[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-ramp-host-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    ({ responder, port } = await startResponder({ security: await responderPairedWith(await backend.trust()) }));
    backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onRampProgress') events.push(payload as RampView);
    });
  });
  after(async () => {
    await backend.close();
    await responder.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The first progress event of ramp `id` that `pred` accepts (bounded). */
  async function progress(id: string, pred: (v: RampView) => boolean, ms = 20_000): Promise<RampView> {
    const deadline = Date.now() + ms;
    return within(
      (async () => {
        for (;;) {
          const v = events.find((x) => x.id === id && pred(x));
          if (v) return v;
          if (Date.now() > deadline) throw new Error('no such ramp event');
          await new Promise((r) => setTimeout(r, 50));
        }
      })(),
      ms + 1000,
      'a ramp progress event',
    );
  }

  it('runs one ramp at a time, forwards each step, saves after every step, stops, exports and reads back after a restart', async () => {
    const req: StartRampRequest = { target: { kind: 'peer', host: '127.0.0.1', port }, params: PARAMS, lossThreshold: 0.01, link: null };
    const started = await backend.call('rampStart', req);
    assert.equal(started.running, true);
    assert.equal(started.end, null);
    assert.match(started.label, new RegExp(`127\\.0\\.0\\.1:${port}`));
    await assert.rejects(backend.call('rampStart', req), { code: 'LH_ERR_BUSY' });
    await assert.rejects(backend.call('startRun', { host: '127.0.0.1', port, params: PARAMS, link: { kind: 'direct' } }), { code: 'LH_ERR_BUSY' });

    const begun = await progress(started.id, (v) => v.current !== null);
    assert.deepEqual(begun.current, { askedBitsPerSec: 1e6, index: 0 }, 'the first step is the Bitrate asked');
    // Stop in the pause after the first step: the file then holds exactly that step.
    const first = await progress(started.id, (v) => v.steps.length === 1);
    assert.deepEqual(await backend.call('rampStop', { id: started.id }), { stopping: true });
    const ended = await progress(started.id, (v) => !v.running);
    assert.equal(ended.end, 'stopped');
    assert.equal(ended.partial, false);
    assert.equal(ended.steps.length, 1);
    const step = first.steps[0]!;
    // Loopback carries 1 Mbit/s without loss; a PC too busy to send 26 datagrams on time says so instead (never "dropped").
    assert.ok(step.outcome === 'carried' || step.outcome === 'sender-short', step.outcome);
    // At most the rate asked plus two datagrams over the 0.3 s (the rate is read between the first and the last arrival,
    // and the pacer may send one datagram ahead): 1 Mbit/s + 2 × 11,680 bit / 0.3 s = 1.078 Mbit/s.
    const most = 1e6 + (2 * 1460 * 8) / 0.3;
    assert.ok(step.receivedBitsPerSec !== null && step.receivedBitsPerSec <= most, `${step.receivedBitsPerSec} bit/s arrived of 1 Mbit/s asked`);
    if (step.outcome === 'carried') assert.deepEqual(ended.carried, step);
    assert.equal('results' in ended, false, 'the screen gets the steps, not whole results');

    assert.deepEqual(await readdir(path.join(dir, 'ramps')), [`${started.id}.json`]);
    const onDisk = JSON.parse(await readFile(path.join(dir, 'ramps', `${started.id}.json`), 'utf8')) as RampFile;
    assert.equal(onDisk.end, 'stopped');
    assert.equal(onDisk.results.length, 1);
    assert.equal(onDisk.results[0]!.id, step.resultId);

    const [entry] = await backend.call('listRamps', null);
    assert.deepEqual(
      { ...entry, startedAt: undefined },
      {
        id: started.id,
        startedAt: undefined,
        label: started.label,
        steps: 1,
        end: 'stopped',
        carriedBitsPerSec: ended.carried?.receivedBitsPerSec ?? null,
        partial: false,
        running: false,
      },
    );
    const text = ((await backend.call('rampExport', { id: started.id, format: 'console' })) as { text: string }).text;
    assert.match(text, /^UDP ramp to 127\.0\.0\.1:\d+: 1 stream, 0\.3 s per step; -b doubles/);
    assert.match(text, /step\s+-b per stream\s+arrived\s+lost\s+jitter\s+finding\n\s+1\s+1M\s/);
    assert.match(text, /Result: stopped after 1 step; carried so far/);
    const json = JSON.parse(((await backend.call('rampExport', { id: started.id, format: 'json' })) as { text: string }).text) as RampFile;
    assert.equal(json.results.length, 1, "the JSON export keeps every step's result");

    // A restarted app reads it back, not running.
    const again = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    try {
      const read = await again.call('rampGet', { id: started.id });
      assert.equal(read.running, false);
      assert.deepEqual(read.steps, ended.steps);
    } finally {
      await again.close();
    }
  });

  it('lists a ramp cut off by a crash as partial, and ends a ramp whose partner is gone as failed', async () => {
    const [done] = await backend.call('listRamps', null);
    const file = JSON.parse(await readFile(path.join(dir, 'ramps', `${done!.id}.json`), 'utf8')) as RampFile;
    const cut = { ...file, id: 'aaaaaaaaaaaaaaaa', end: null, partial: true, startedAt: '2026-01-01T00:00:00.000Z' };
    await writeFile(path.join(dir, 'ramps', `${cut.id}.json`), JSON.stringify(cut));
    await writeFile(path.join(dir, 'ramps', 'bbbbbbbbbbbbbbbb.json'), '{ not json');
    const list = await backend.call('listRamps', null);
    assert.equal(list.find((e) => e.id === cut.id)?.partial, true);
    assert.equal(list.length, 2, 'the unreadable file is skipped, History still opens');
    assert.equal((await backend.call('rampGet', { id: cut.id })).running, false);
    await assert.rejects(backend.call('rampGet', { id: 'cccccccccccccccc' }), { code: 'LH_ERR_NOT_FOUND' });

    // A port nobody listens on: the first step has no result, so the ramp ends there, saying why.
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const gone = await backend.call('rampStart', {
      target: { kind: 'peer', host: '127.0.0.1', port: closed },
      params: PARAMS,
      lossThreshold: 0.01,
      link: null,
    });
    const failed = await progress(gone.id, (v) => !v.running);
    assert.equal(failed.end, 'failed');
    assert.ok(failed.error !== null || failed.steps[0]?.outcome === 'failed', JSON.stringify(failed));
  });

  it('refuses what a ramp cannot take, naming it', () => {
    const base: StartRampRequest = { target: { kind: 'peer', host: '127.0.0.1', port: 5201 }, params: PARAMS, lossThreshold: 0.01, link: null };
    const parse = (req: unknown) => backend.call('rampStart', req);
    return Promise.all([
      assert.rejects(parse({ ...base, params: { ...PARAMS, protocol: undefined } }), /must be UDP/),
      assert.rejects(parse({ ...base, params: { ...PARAMS, direction: 'bidir' } }), /one direction's rate/),
      assert.rejects(parse({ ...base, params: { ...PARAMS, seconds: null, bytes: 1e6 } }), /each step is a time/),
      assert.rejects(parse({ ...base, lossThreshold: 0.6 }), /lossThreshold/),
      assert.rejects(
        parse({
          ...base,
          target: { kind: 'iperf3', host: '127.0.0.1', port: 5201 },
          link: { preset: 'satellite', settings: findPreset('satellite')!.settings },
        }),
        /a ramp against iperf3 -s goes direct/,
      ),
      assert.rejects(backend.call('rampGet', { id: '../x' }), { code: 'LH_ERR_BAD_ARGUMENT' }),
    ]).then(() => undefined);
  });
});
