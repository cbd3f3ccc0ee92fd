/**
 * The app host on the real engine: a run that fails before any byte moves is a
 * failed start (`onRunFailed` with its code), never a result: no `onRunEnd`,
 * nothing in History. Refused (a closed port), not paired (a responder with
 * its own trust), parameters refused (a responder's limit). A run that moved
 * bytes still ends as a result.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { EventName, Events, RunEnded, RunFailed } from '../../electron/contract/api.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';

const PARAMS = { streams: 1, bufferBytes: 65536, windowBytes: null, bytes: null, seconds: 0.5, direction: 'forward' as const, intervalSeconds: 0.25 };

/** A port on 127.0.0.1 that was free a moment ago: nothing listens there, so a connect is refused. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('app backend: failed starts', { timeout: 60_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  const responders: Responder[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-backend-failed-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
  });
  after(async () => {
    await backend.close();
    await Promise.all(responders.map((r) => r.close()));
    await rm(dir, { recursive: true, force: true });
  });

  /** Start a run to `port` and wait for how it ends: failed (with the events seen) or a result. */
  async function runTo(port: number, params = PARAMS): Promise<{ failed: RunFailed | null; ended: RunEnded | null; runId: string }> {
    let settle!: (v: { failed: RunFailed | null; ended: RunEnded | null }) => void;
    const end = new Promise<{ failed: RunFailed | null; ended: RunEnded | null }>((r) => (settle = r));
    const unsubscribe = backend.hub.subscribe(<K extends EventName>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onRunFailed') settle({ failed: payload as RunFailed, ended: null });
      if (name === 'onRunEnd') settle({ failed: null, ended: payload as RunEnded });
    });
    try {
      const { runId } = await backend.call('startRun', { host: '127.0.0.1', port, params, link: { kind: 'direct' } });
      return { ...(await within(end, 20_000, 'the run to end')), runId };
    } finally {
      unsubscribe();
    }
  }

  it('a refused address: onRunFailed LH_ERR_REFUSED at hello, nothing stored', async () => {
    const { failed, ended, runId } = await runTo(await closedPort());
    assert.equal(ended, null, 'no result for a run that never connected');
    assert.equal(failed?.runId, runId);
    assert.equal(failed?.error.code, 'LH_ERR_REFUSED', failed?.error.message);
    assert.equal(failed?.phase, 'hello');
    assert.deepEqual((await backend.call('listHistory', null)).entries, []);
  });

  it('a responder that does not know this PC: LH_ERR_NOT_PAIRED, nothing stored', async () => {
    // startResponder pairs the responder with a fresh controller identity, not with this backend's.
    const { responder, port } = await startResponder();
    responders.push(responder);
    const { failed, ended } = await runTo(port);
    assert.equal(ended, null);
    assert.equal(failed?.error.code, 'LH_ERR_NOT_PAIRED', failed?.error.message);
    assert.deepEqual((await backend.call('listHistory', null)).entries, []);
  });

  it('parameters over the responder limit: LH_ERR_PARAMS_REJECTED; then a good run is stored', async () => {
    const { responder, port } = await startResponder({ security: await responderPairedWith(await backend.trust()), limits: { maxStreams: 1 } });
    responders.push(responder);
    const { failed, ended } = await runTo(port, { ...PARAMS, streams: 2 });
    assert.equal(ended, null);
    assert.equal(failed?.error.code, 'LH_ERR_PARAMS_REJECTED', failed?.error.message);
    assert.equal(failed?.phase, 'params');
    assert.deepEqual((await backend.call('listHistory', null)).entries, []);
    // The same responder with parameters it takes: a result, stored as before.
    const ok = await runTo(port);
    assert.equal(ok.failed, null);
    assert.ok(ok.ended && ok.ended.result.total.bytes > 0);
    assert.deepEqual(
      (await backend.call('listHistory', null)).entries.map((e) => e.id),
      [ok.ended.result.id],
    );
  });
});
