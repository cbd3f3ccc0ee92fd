/**
 * The app host against a real `iperf3 -s` on 127.0.0.1 (Debian's iperf3): startRun with
 * `partner: 'iperf3'` streams live samples, ends in a result with iperf3's counts, and is
 * stored in History; the emulator is refused for it (it speaks Longhaul's control channel).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events, LiveSample, RunEnded, RunFailed } from '../../electron/contract/api.js';
import { HAVE_IPERF3, freePort, startIperf3Server } from '../helpers/iperf3.js';
import { within } from '../helpers/net.js';

const params = { streams: 2, bufferBytes: 128 * 1024, windowBytes: null, bytes: null, seconds: 2, direction: 'forward' as const, intervalSeconds: 0.25 };

describe('app backend: the partner runs iperf3 -s', { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3', timeout: 40_000 }, () => {
  let dir: string;
  let backend: AppBackend;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-iperf3-app-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
  });
  after(async () => {
    await backend.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs against iperf3 -s: live samples, iperf3's counts in the result, saved to History", async () => {
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 20_000);
    const samples: LiveSample[] = [];
    const phases: string[] = [];
    let ended!: (e: RunEnded) => void;
    const end = new Promise<RunEnded>((r) => (ended = r));
    const unsubscribe = backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onSample') samples.push(payload as LiveSample);
      if (name === 'onPhase') phases.push((payload as { phase: string }).phase);
      if (name === 'onRunEnd') ended(payload as RunEnded);
    });
    const { runId } = await backend.call('startRun', { host: '127.0.0.1', port, params, link: { kind: 'direct' }, partner: 'iperf3' });
    const e = await within(end, 20_000, 'the run against iperf3 -s');
    unsubscribe();
    const server = await within(exit, 10_000, 'iperf3 -s -1 after the run');

    assert.equal(e.runId, runId);
    assert.equal(e.result.partial, false, e.result.partialReason ?? '');
    assert.equal(server.code, 0, server.stderr);
    assert.match(e.result.responder.software, /^iperf3 3\.\d+/);
    // A hex id (History takes no other) that reads back to the cookie iperf3 printed.
    assert.equal(e.result.id, Buffer.from(server.json?.start?.cookie?.slice(0, 8) ?? '', 'latin1').toString('hex'));
    // What iperf3 -s says it received is what the result says arrived.
    assert.equal(e.result.total.bytes, server.json?.end?.sum_received?.bytes);
    assert.equal(e.result.total.bytes, e.result.total.sentBytes, 'every byte sent was counted by iperf3');
    assert.deepEqual(phases.slice(0, 3), ['hello', 'params', 'streams']);
    assert.ok(phases.includes('running') && phases.includes('done'), phases.join(' '));
    // Live: this PC's (the sender's) counters, several ticks, rising; iperf3 sends none.
    const mine = samples.filter((s) => s.runId === runId && s.side === 'controller');
    assert.ok(mine.length >= 4, `${mine.length} live samples`);
    assert.ok(
      samples.every((s) => s.side === 'controller'),
      "no samples claim to be the iperf3 end's",
    );
    const sum = (s: LiveSample): number => s.streams.reduce((a, x) => a + x[1], 0);
    assert.ok(sum(mine.at(-1)!) > sum(mine[0]!) && sum(mine.at(-1)!) === e.result.total.sentBytes);

    assert.ok(e.savedPath?.startsWith(dir), `saved: ${e.savedPath} ${e.saveError}`);
    assert.deepEqual(JSON.parse(await readFile(e.savedPath!, 'utf8')), e.result);
    const list = await backend.call('listHistory', null);
    const entry = list.entries.find((h) => h.id === e.result.id);
    assert.ok(entry, 'in History');
    assert.equal(entry.responder, `127.0.0.1 (127.0.0.1:${port})`);
  });

  it('refuses the link emulator and an unknown partner kind before anything starts', async () => {
    const settings = { delayMs: 10, jitterMs: 0, rateBitsPerSec: null, windowBytes: null, slowstart: false, lossRatio: 0, mssBytes: 1460 };
    await assert.rejects(
      backend.call('startRun', { host: '127.0.0.1', port: 5201, params, link: { kind: 'proxy', preset: null, settings }, partner: 'iperf3' }),
      { code: 'LH_ERR_BAD_ARGUMENT', message: /emulator is for Longhaul partners/ },
    );
    await assert.rejects(backend.call('startRun', { host: '127.0.0.1', port: 5201, params, link: { kind: 'direct' }, partner: 'iperf2' }), {
      code: 'LH_ERR_BAD_ARGUMENT',
    });
  });

  it('says what went wrong when nothing listens there (LH_ERR_*): a failed start, not a result, nothing in History', async () => {
    const port = await freePort();
    let failed!: (e: RunFailed) => void;
    const fail = new Promise<RunFailed>((r) => (failed = r));
    let endedAsResult = false;
    const unsubscribe = backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onRunFailed') failed(payload as RunFailed);
      if (name === 'onRunEnd') endedAsResult = true;
    });
    const before = (await backend.call('listHistory', null)).entries.length;
    const { runId } = await backend.call('startRun', { host: '127.0.0.1', port, params, link: { kind: 'direct' }, partner: 'iperf3' });
    const e = await within(fail, 15_000, 'the refused run');
    unsubscribe();
    assert.equal(e.runId, runId);
    assert.match(e.error.code, /^LH_ERR_/);
    assert.equal(endedAsResult, false, 'no result page for a run that never started');
    assert.equal((await backend.call('listHistory', null)).entries.length, before, 'no History row');
  });
});
