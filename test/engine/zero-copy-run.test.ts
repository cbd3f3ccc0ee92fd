/**
 * -Z (zero-copy sender) on real loopback runs (responder in this process, data in worker
 * processes): on Linux every sending end says it used sendfile(2), forward and under -R (the
 * responder's senders take it from the run's parameters); a byte budget is met exactly; Node's
 * loop copies and says why; without -Z every end copies and nothing is said.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { ZERO_COPY_FIELD } from '../../electron/contract/send-path.js';
import { zeroCopyLine } from '../../electron/contract/send-path-text.js';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import { requireNative, skipWithoutNative } from '../helpers/native.js';
import { startResponder, within } from '../helpers/net.js';

const LINUX = process.platform === 'linux';

async function run(params: Partial<RunParams>): Promise<LonghaulResult> {
  requireNative();
  const { responder, port, security } = await startResponder({ maxWorkersPerRole: 1 });
  try {
    const ended = new Promise((r) => responder.once('session-end', r));
    const r = startRun({ host: '127.0.0.1', port, security, maxWorkersPerRole: 1, params: { ...DEFAULT_PARAMS, intervalSeconds: 0.5, ...params } });
    const result = await within(r.result, 30_000, 'the run');
    await within(ended, 10_000, 'the responder session end');
    return result;
  } finally {
    await responder.close();
  }
}

function sendViews(r: LonghaulResult): NonNullable<LonghaulResult['streams'][number]['send']>[] {
  return r.streams.map((s) => {
    assert.ok(s.send, `stream ${s.id} has a send view`);
    return s.send;
  });
}

function zeroCopyReasons(r: LonghaulResult): string[] {
  return (r.unavailable ?? []).filter((u) => u.field === ZERO_COPY_FIELD).map((u) => `${u.side}: ${u.reason}`);
}

describe('-Z on real loopback runs', { timeout: 120_000, skip: skipWithoutNative }, () => {
  it(
    'forward -P 2: the controller sends with sendfile(2) on both streams, and every byte sent arrived',
    { skip: LINUX ? false : 'sendfile is Linux only' },
    async () => {
      const r = await run({ streams: 2, seconds: 1, zeroCopy: true });
      assert.equal(r.partial, false, r.partialReason ?? '');
      assert.equal(r.params.zeroCopy, true);
      for (const v of sendViews(r)) {
        assert.equal(v.side, 'controller');
        assert.equal(v.sendPath, 'sendfile');
        assert.ok(v.bytes > 0, 'bytes moved');
      }
      for (const s of r.streams) assert.equal(s.receive?.bytes, s.send?.bytes, `stream ${s.id}: received what was sent`);
      assert.deepEqual(zeroCopyReasons(r), []);
      assert.equal(zeroCopyLine(r), 'Zero-copy sender (-Z): controller sendfile(2) on all 2 streams');
    },
  );

  it('-R: the responder takes -Z from the parameters and sends with sendfile(2)', { skip: LINUX ? false : 'sendfile is Linux only' }, async () => {
    const r = await run({ streams: 1, seconds: 1, direction: 'reverse', zeroCopy: true });
    assert.equal(r.partial, false, r.partialReason ?? '');
    const [v] = sendViews(r);
    assert.equal(v?.side, 'responder');
    assert.equal(v?.sendPath, 'sendfile');
    assert.equal(r.streams[0]?.receive?.bytes, v?.bytes);
    assert.deepEqual(zeroCopyReasons(r), []);
  });

  it('-n 7,000,001 B over -P 2 with -l 1M: each stream stops at its share exactly, all of it sent by sendfile(2)', async () => {
    const bytes = 7_000_001;
    const r = await run({ streams: 2, bytes, seconds: null, bufferBytes: 1024 * 1024, zeroCopy: true });
    assert.equal(r.partial, false, r.partialReason ?? '');
    // The plan's split: evenly, the remainder to the first stream.
    const shares = [3_500_001, 3_500_000];
    r.streams.forEach((s, i) => {
      assert.equal(s.send?.bytes, shares[i], `stream ${s.id} sent its share`);
      assert.equal(s.receive?.bytes, shares[i], `stream ${s.id} received its share`);
      if (LINUX) assert.equal(s.send?.sendPath, 'sendfile');
    });
    assert.equal(r.total.bytes, bytes);
  });

  it("Node's loop (LONGHAUL_DATA_PATH=node) copies and says why in unavailable and the -Z line", async () => {
    const before = process.env['LONGHAUL_DATA_PATH'];
    process.env['LONGHAUL_DATA_PATH'] = 'node';
    let r: LonghaulResult;
    try {
      r = await run({ streams: 1, bytes: 4_000_000, seconds: null, zeroCopy: true });
    } finally {
      if (before === undefined) delete process.env['LONGHAUL_DATA_PATH'];
      else process.env['LONGHAUL_DATA_PATH'] = before;
    }
    assert.equal(r.partial, false, r.partialReason ?? '');
    const [v] = sendViews(r);
    assert.equal(v?.io, 'node');
    assert.equal(v?.sendPath, 'copy');
    assert.equal(v?.bytes, 4_000_000);
    const [why, ...more] = zeroCopyReasons(r);
    assert.equal(more.length, 0);
    assert.match(why ?? '', /^controller: Node's socket loop copies each write \(it moves this stream: LONGHAUL_DATA_PATH=node\)$/);
    assert.match(zeroCopyLine(r) ?? '', /^Zero-copy sender \(-Z\): controller copied on 1 of 1 \(Node's socket loop copies/);
  });

  it('without -Z: every sending end copies, and no line or reason is added', async () => {
    const r = await run({ streams: 1, seconds: 0.5, direction: 'bidir' });
    assert.equal(r.params.zeroCopy, undefined);
    for (const v of sendViews(r)) assert.equal(v.sendPath, 'copy', `${v.side} copied`);
    assert.deepEqual(zeroCopyReasons(r), []);
    assert.equal(zeroCopyLine(r), null);
  });
});
