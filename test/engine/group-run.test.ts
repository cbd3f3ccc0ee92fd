/**
 * Multi-peer runs on 127.0.0.1: two separately installed responders (own
 * processes, own identities, paired), started at one barrier. Byte-limited
 * runs give exact counts per peer; the aggregate is checked against figures
 * computed here from the peers' own results, independently of group-aggregate.ts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { LonghaulGroupResult } from '../../electron/contract/group.js';
import { startGroupRun } from '../../electron/engine/group/group-run.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { pairedListeners } from '../helpers/listeners.js';
import { closeServer, listenLocal } from '../helpers/native.js';
import { within } from '../helpers/net.js';
import { tmpDir } from '../helpers/tmp.js';

async function group(t: TestContext, params: Partial<RunParams>, names = ['peer-a', 'peer-b']) {
  const mine = await loadTrust(path.join(tmpDir(t), 'controller'));
  const listeners = await pairedListeners(t, mine, names);
  const run = startGroupRun({ peers: listeners.map((l) => ({ host: '127.0.0.1', port: l.port, security: mine })), params: { ...DEFAULT_PARAMS, ...params } });
  return { run, listeners };
}

/** Both conventions, computed from the peers' results without the aggregation code. */
function expectedTotals(g: LonghaulGroupResult) {
  let first = Infinity;
  let last = -Infinity;
  let bytes = 0;
  for (const p of g.peers) {
    for (const s of p.result.streams) {
      bytes += s.bytes;
      first = Math.min(first, s.receive!.firstT! + p.startOffsetSeconds!);
      last = Math.max(last, s.receive!.lastT! + p.startOffsetSeconds!);
    }
  }
  return {
    bytes,
    wallClock: (bytes * 8) / (last - first),
    peerSum: g.peers.reduce((a, p) => a + p.result.total.bitsPerSecond!, 0),
  };
}

function checkExactRun(g: LonghaulGroupResult, perPeerBytes: number, sender: 'controller' | 'responder', ports: number[]) {
  assert.equal(g.schema, 'longhaul.group/1');
  assert.equal(g.partial, false, g.partialReason ?? '');
  assert.equal(g.peers.length, 2);
  for (const [i, p] of g.peers.entries()) {
    assert.equal(p.address, `127.0.0.1:${ports[i]}`);
    assert.equal(p.result.responder.address, `127.0.0.1:${ports[i]}`, "each result is that peer's run");
    assert.equal(p.role, sender === 'controller' ? 'sender' : 'receiver');
    assert.equal(p.result.partial, false, p.result.partialReason ?? '');
    assert.equal(p.result.total.bytes, perPeerBytes, `${p.address}: received exactly what was asked`);
    for (const s of p.result.streams) {
      assert.equal(s.sender, sender);
      assert.equal(s.send!.bytes, s.bytes, `${p.address} stream ${s.id}: sent == received`);
    }
    const ivSum = p.result.intervals.reduce((a, iv) => a + (iv.receivedBytes ?? 0), 0);
    assert.equal(ivSum, perPeerBytes, `${p.address}: its intervals add up`);
  }
  assert.notEqual(g.peers[0]!.result.id, g.peers[1]!.result.id, 'one run (cookie) per peer');
  const want = expectedTotals(g);
  assert.equal(g.total.bytes, 2 * perPeerBytes);
  assert.equal(g.total.bytes, want.bytes);
  assert.ok(Math.abs(g.total.bitsPerSecond! - want.wallClock) <= want.wallClock * 1e-9, `wall-clock ${g.total.bitsPerSecond} vs ${want.wallClock}`);
  assert.ok(Math.abs(g.total.peerSumBitsPerSecond! - want.peerSum) <= want.peerSum * 1e-9, `peer sum ${g.total.peerSumBitsPerSecond} vs ${want.peerSum}`);
  // Each peer's own span is inside the group's, so the peers' rates add up to at least the wall-clock rate.
  assert.ok(g.total.peerSumBitsPerSecond! >= g.total.bitsPerSecond! * 0.999);
  // The aggregate intervals: per-peer figures are the peers' own, the sum adds up to the total.
  for (const iv of g.intervals) {
    for (const [i, b] of iv.peerReceivedBytes.entries()) {
      const own = g.peers[i]!.result.intervals.find((x) => x.index === iv.index);
      assert.equal(b, own ? own.receivedBytes : 0);
    }
  }
  assert.equal(
    g.intervals.reduce((a, iv) => a + iv.receivedBytes!, 0),
    g.total.bytes,
  );
  assert.ok(g.startSkewSeconds !== null && g.startSkewSeconds >= 0 && g.startSkewSeconds < 0.05, `start skew ${g.startSkewSeconds} s`);
}

describe('multi-peer runs on loopback', { timeout: 150_000 }, () => {
  it('dual receive (-R): two peers send to this PC, each counted exactly, the aggregate is their sum', async (t) => {
    const bytes = 40_000_001;
    const { run, listeners } = await group(t, { direction: 'reverse', streams: 2, bytes, seconds: null, intervalSeconds: 0.2 });
    const g = await within(run.result, 60_000, 'group run');
    checkExactRun(
      g,
      bytes,
      'responder',
      listeners.map((l) => l.port),
    );
    t.diagnostic(
      `dual receive: skew ${(g.startSkewSeconds! * 1000).toFixed(3)} ms, wall-clock ${(g.total.bitsPerSecond! / 1e6).toFixed(1)} Mbit/s, peer sum ${(g.total.peerSumBitsPerSecond! / 1e6).toFixed(1)}`,
    );
  });

  it('dual transmit: this PC sends to two peers, each counted exactly, the aggregate is their sum', async (t) => {
    const bytes = 40_000_001;
    const { run, listeners } = await group(t, { direction: 'forward', streams: 1, bytes, seconds: null, intervalSeconds: 0.2 });
    const g = await within(run.result, 60_000, 'group run');
    checkExactRun(
      g,
      bytes,
      'controller',
      listeners.map((l) => l.port),
    );
    t.diagnostic(
      `dual transmit: skew ${(g.startSkewSeconds! * 1000).toFixed(3)} ms, wall-clock ${(g.total.bitsPerSecond! / 1e6).toFixed(1)} Mbit/s, peer sum ${(g.total.peerSumBitsPerSecond! / 1e6).toFixed(1)}`,
    );
  });

  it('--bidir: both ways with each peer, each direction exact per peer and in the aggregate', async (t) => {
    const bytes = 20_000_001;
    const { run } = await group(t, { direction: 'bidir', streams: 1, bytes, seconds: null, intervalSeconds: 0.2 });
    const g = await within(run.result, 60_000, 'group run');
    assert.equal(g.partial, false, g.partialReason ?? '');
    for (const p of g.peers) {
      assert.equal(p.role, 'both');
      assert.equal(p.result.directions.controllerToResponder!.bytes, bytes);
      assert.equal(p.result.directions.responderToController!.bytes, bytes);
    }
    assert.equal(g.directions.controllerToResponder!.bytes, 2 * bytes);
    assert.equal(g.directions.responderToController!.bytes, 2 * bytes);
    assert.equal(g.total.bytes, 4 * bytes);
    const wantSum = g.peers.reduce((a, p) => a + p.result.directions.responderToController!.bitsPerSecond!, 0);
    assert.ok(Math.abs(g.directions.responderToController!.peerSumBitsPerSecond! - wantSum) <= wantSum * 1e-9);
  });

  it('a peer killed mid-run: the other runs to its end, the group is partial naming the vanished peer', async (t) => {
    const { run, listeners } = await group(t, { direction: 'forward', streams: 1, seconds: 4, bytes: null, intervalSeconds: 0.25 });
    const started = new Promise<void>((resolve) => run.once('started', resolve));
    await within(started, 20_000, 'common start');
    await new Promise((r) => setTimeout(r, 1000));
    listeners[1]!.child.kill('SIGKILL');
    const g = await within(run.result, 40_000, 'group run');
    const [a, b] = g.peers;
    assert.equal(a!.result.partial, false, a!.result.partialReason ?? '');
    assert.ok(a!.result.params.seconds === 4 && a!.result.total.seconds! > 3.5, `the survivor ran to its end: ${a!.result.total.seconds} s`);
    for (const s of a!.result.streams) assert.equal(s.send!.bytes, s.bytes, "the survivor's streams are complete");
    assert.equal(b!.result.partial, true);
    assert.ok(b!.result.total.bytes > 0, 'what the vanished peer received before is kept');
    assert.equal(g.partial, true);
    assert.match(g.partialReason!, new RegExp(`peer 2 \\(127\\.0\\.0\\.1:${listeners[1]!.port}\\)`));
    assert.doesNotMatch(g.partialReason!, /peer 1 /);
    assert.ok(
      g.errors.some((e) => e.peer === 1),
      JSON.stringify(g.errors),
    );
    // After the vanished peer's last interval its figures are unknown, and so is the sum.
    const lastB = Math.max(...b!.result.intervals.map((iv) => iv.index));
    const after = g.intervals.filter((iv) => iv.index > lastB);
    assert.ok(after.length > 0);
    for (const iv of after) {
      assert.equal(iv.peerReceivedBytes[1], null);
      assert.equal(iv.receivedBytes, null);
    }
  });

  it('a peer that fails before the start fails the group: no peer starts, the error names it', async (t) => {
    const mine = await loadTrust(path.join(tmpDir(t), 'controller'));
    const [ok] = await pairedListeners(t, mine, ['peer-a']);
    const { server, port: deadPort } = await listenLocal(() => undefined);
    await closeServer(server); // nothing listens there now: connection refused
    const run = startGroupRun({
      peers: [
        { host: '127.0.0.1', port: ok!.port, security: mine },
        { host: '127.0.0.1', port: deadPort, security: mine },
      ],
      params: { ...DEFAULT_PARAMS, bytes: 10_000_000, seconds: null },
    });
    const g = await within(run.result, 30_000, 'group run');
    assert.equal(g.partial, true);
    assert.equal(g.startSkewSeconds, null);
    const groupError = g.errors.find((e) => e.peer === null);
    assert.equal(groupError?.code, 'LH_ERR_GROUP_START');
    assert.match(groupError!.message, new RegExp(`peer 2 \\(127\\.0\\.0\\.1:${deadPort}\\) failed before the start`));
    assert.equal(g.total.bytes, 0);
    assert.equal(g.peers[0]!.result.total.bytes, 0, 'the healthy peer never started');
    assert.equal(g.peers[0]!.startOffsetSeconds, null);
  });
});
