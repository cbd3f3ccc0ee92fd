/**
 * Group runs from the app host: two `longhaul listen` processes on 127.0.0.1
 * (each its own installation, paired with the backend's), one `startGroupRun`
 * through the contract, live samples and phases carrying the peer, the group
 * stored in History's groups folder and exported with the group formatters;
 * a second start while it runs is LH_ERR_BUSY; a stopped group is kept, partial.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events, LiveSample } from '../../electron/contract/api.js';
import type { GroupEnded } from '../../electron/contract/group-app.js';
import { renderGroupReport } from '../../electron/report/render.js';
import { pairedListeners } from '../helpers/listeners.js';
import { within } from '../helpers/net.js';
import { tmpDir } from '../helpers/tmp.js';

async function setUp(t: TestContext, names: string[]) {
  const dir = tmpDir(t);
  const backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
  t.after(() => backend.close());
  const listeners = await pairedListeners(t, await backend.trust(), names);
  const samples: LiveSample[] = [];
  const phases: Events['onPhase']['payload'][] = [];
  let ended!: (e: GroupEnded) => void;
  const end = new Promise<GroupEnded>((r) => (ended = r));
  const unsubscribe = backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
    if (name === 'onSample') samples.push(payload as LiveSample);
    if (name === 'onPhase') phases.push(payload as Events['onPhase']['payload']);
    if (name === 'onGroupEnd') ended(payload as GroupEnded);
  });
  t.after(unsubscribe);
  return { dir, backend, peers: listeners.map((l) => ({ host: '127.0.0.1', port: l.port })), samples, phases, end };
}

/**
 * 1.5 GB per peer: at least two 0.1 s samples per peer need the transfer to last 0.2 s or more, and on a quiet PC
 * two peers share loopback at 10+ Gbit/s each, where the 300 MB this test moved before took 0.1–0.25 s (a peer
 * had one sample in 2 of 4 runs on 2026-12-05). At 1 Gbit/s per peer (a busy PC) 1.5 GB takes 12 s, inside the 40 s bound.
 */
const PARAMS = { streams: 2, bufferBytes: 65536, windowBytes: null, bytes: 1_500_000_001, seconds: null, direction: 'reverse' as const, intervalSeconds: 0.1 };

describe('app backend: group runs', { timeout: 60_000 }, () => {
  it('runs a dual-receive group, streams samples per peer, stores and exports the group document', async (t) => {
    const { dir, backend, peers, samples, phases, end } = await setUp(t, ['app-peer-a', 'app-peer-b']);
    const { runId } = await backend.call('startGroupRun', { peers, params: PARAMS });
    // One run of any kind at a time.
    await assert.rejects(backend.call('startGroupRun', { peers, params: PARAMS }), { code: 'LH_ERR_BUSY' });
    await assert.rejects(backend.call('startRun', { ...peers[0]!, params: PARAMS, link: { kind: 'direct' } }), { code: 'LH_ERR_BUSY' });
    await assert.rejects(backend.call('setBypass', { runId, bypass: true }), { code: 'LH_ERR_NOT_AVAILABLE' });
    const e = await within(end, 40_000, 'the group run');
    assert.equal(e.runId, runId);
    const g = e.group;
    assert.equal(g.schema, 'longhaul.group/1');
    assert.equal(g.partial, false, g.partialReason ?? '');
    assert.deepEqual(
      g.peers.map((p) => p.address),
      peers.map((p) => `127.0.0.1:${p.port}`),
    );
    assert.deepEqual(
      g.peers.map((p) => p.role),
      ['receiver', 'receiver'],
    );
    assert.deepEqual(
      g.peers.map((p) => p.result.total.bytes),
      [PARAMS.bytes, PARAMS.bytes],
      'each peer sent exactly what was asked',
    );
    assert.equal(g.total.bytes, 2 * PARAMS.bytes);

    // Live: samples of both peers, tagged; each peer's last receiving sample holds what its result received.
    for (const i of [0, 1]) {
      const mine = samples.filter((s) => s.runId === runId && s.peer === i && s.side === 'controller');
      assert.ok(mine.length >= 2, `peer ${i}: ${mine.length} samples`);
      assert.equal(
        mine.at(-1)!.streams.reduce((a, s) => a + s[1], 0),
        g.peers[i]!.result.total.bytes,
      );
      // Phases name the peer, and its host name once it said hello (as its result has it).
      const named = phases.filter((p) => p.peer === i && p.phase === 'running');
      assert.equal(named.length, 1, `peer ${i} entered running once`);
      assert.equal(named[0]!.hostname, g.peers[i]!.hostname);
    }
    assert.equal(samples.filter((s) => s.peer === undefined).length, 0, 'every sample of a group names its peer');

    // Stored beside the results, in groups/, and listed there (not among single results).
    assert.ok(e.savedPath?.startsWith(path.join(dir, 'groups') + path.sep), e.savedPath ?? e.saveError ?? '');
    assert.deepEqual(JSON.parse(await readFile(e.savedPath!, 'utf8')), g);
    assert.deepEqual((await backend.call('listHistory', null)).entries, []);
    const listing = await backend.call('listGroups', null);
    assert.deepEqual(listing.unreadable, []);
    assert.equal(listing.entries.length, 1);
    const entry = listing.entries[0]!;
    assert.equal(entry.id, g.id);
    assert.equal(entry.title, '2 peers, dual receive');
    assert.equal(entry.bitsPerSecond, g.total.bitsPerSecond);
    assert.equal(entry.peers.length, 2);
    assert.deepEqual(await backend.call('loadGroup', { id: g.id }), g);

    // Exports: the `longhaul report --from group.json` text of the same group, byte for byte.
    for (const format of ['json', 'csv', 'console'] as const) {
      const x = await backend.call('exportGroup', { id: g.id, format });
      assert.equal(x.kind, 'download');
      if (x.kind === 'download') assert.equal(x.text, renderGroupReport(g, format), format);
    }
    const log = await backend.call('groupReportText', { id: g.id, format: 'console' });
    assert.match(log.fileName, /^longhaul-group-.*\.log$/);
    assert.match(log.text, /=== all 2 peers \(Thread = peer number\) ===/);

    // A fresh backend on the same folder reads it back from the file.
    const again = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    assert.deepEqual(await again.call('loadGroup', { id: g.id }), g);
    await again.close();
  });

  it('keeps a stopped group as partial, and refuses bad group requests with LH_ERR_BAD_ARGUMENT', async (t) => {
    const { backend, peers, samples, end } = await setUp(t, ['app-peer-c', 'app-peer-d']);
    const params = { ...PARAMS, bytes: null, seconds: 30, direction: 'forward' as const };
    await assert.rejects(
      backend.call('startGroupRun', { peers: [peers[0]], params }),
      (e: Error & { code: string }) => e.code === 'LH_ERR_BAD_ARGUMENT' && /two or more/.test(e.message),
    );
    await assert.rejects(
      backend.call('startGroupRun', { peers: [peers[0], peers[0]], params }),
      (e: Error & { code: string }) => e.code === 'LH_ERR_BAD_ARGUMENT' && /twice/.test(e.message),
    );
    await assert.rejects(backend.call('exportGroup', { id: 'abcdef0123456789', format: 'ttcp' }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('loadGroup', { id: 'abcdef0123456789' }), { code: 'LH_ERR_NOT_FOUND' });

    const { runId } = await backend.call('startGroupRun', { peers, params });
    const deadline = Date.now() + 20_000;
    while (!(samples.some((s) => s.peer === 0 && s.index >= 3) && samples.some((s) => s.peer === 1 && s.index >= 3))) {
      assert.ok(Date.now() < deadline, 'both peers sample within 20 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(await backend.call('stopRun', { runId }), { stopping: true });
    const e = await within(end, 20_000, 'the stopped group');
    assert.equal(e.group.partial, true);
    assert.match(e.group.partialReason ?? '', /peer 1 \(127\.0\.0\.1:\d+\): stopped by the user/);
    assert.ok(
      e.group.peers.every((p) => p.result.total.bytes > 0),
      'what was measured is kept',
    );
    assert.ok(e.savedPath, e.saveError ?? '');
    assert.equal((await backend.call('listGroups', null)).entries[0]?.partial, true);
  });
});
