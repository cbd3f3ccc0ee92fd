/**
 * Real paired runs on 127.0.0.1: exact byte accounting on both ends, every direction, with each
 * byte loop, and with data connections owned by the addon end to end (the Windows path,
 * native/data-path.ts, run here on the POSIX build of the same code).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { resolveDataPath, type StreamIo } from '../../electron/native/data-path.js';
import { DATA_CONN_ENV, DATA_PATH_ENV, readSwitches } from '../../electron/native/switches.js';
import { nativeSockets } from '../../electron/native/load-native.js';
import { startResponder, within } from '../helpers/net.js';

const responders: Responder[] = [];
after(async () => {
  await Promise.all(responders.map((r) => r.close()));
});

/** Which byte loop the data workers use (they read it at start-up: electron/native/data-path.ts). */
let io: StreamIo = 'native';
/** Whether the addon owns the data connections (native/data-path.ts); read by the workers and the responder session. */
let owned = false;

async function run(params: Partial<RunParams>) {
  process.env[DATA_PATH_ENV] = io;
  if (owned) process.env[DATA_CONN_ENV] = 'owned';
  else delete process.env[DATA_CONN_ENV];
  const { responder, port, security } = await startResponder();
  responders.push(responder);
  const responderEnd = new Promise<Parameters<Parameters<Responder['on']>[1]>>((resolve) => {
    responder.once('session-end', (...args: unknown[]) => resolve(args as never));
  });
  const r = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, ...params } });
  let startedAtTold: Date | null | undefined;
  r.once('phase', function onPhase(p) {
    if (p === 'start') startedAtTold = r.startedAt;
    else r.once('phase', onPhase);
  });
  const result = await within(r.result, 30_000, 'run');
  // Live reports take the start from the 'start' phase: it must be the instant the result records (a 1 ms
  // difference made a live CSV's timestamps differ from `report`'s in the fresh-clone CI run).
  if (!result.partial) assert.equal(startedAtTold?.toISOString(), result.startedAt, "the start told with the 'start' phase is the result's");
  const [responderResult] = (await within(responderEnd, 5_000, 'responder session end')) as unknown as [
    import('../../electron/contract/result.js').LonghaulResult | null,
  ];
  // Every end says which loop moved its bytes, and it is the one asked for.
  for (const s of result.streams) for (const end of [s.send, s.receive]) assert.equal(end?.io, io, `stream ${s.id} ${end?.side}: io`);
  return { result, responderResult };
}

after(() => {
  delete process.env[DATA_PATH_ENV];
  delete process.env[DATA_CONN_ENV];
});

const canNative = resolveDataPath(readSwitches({}), nativeSockets(), process.platform).tcpIo.io === 'native';
const canOwn = resolveDataPath(readSwitches({ [DATA_CONN_ENV]: 'owned' }), nativeSockets(), process.platform).conn.mode === 'owned';
const variants = [
  { name: 'native byte loop', io: 'native', owned: false, skip: !canNative && 'the native byte loop is not built here' },
  { name: 'node byte loop', io: 'node', owned: false, skip: false },
  { name: 'addon-owned data connections', io: 'native', owned: true, skip: !canOwn && 'this build of the addon cannot own data connections' },
] as const;
for (const v of variants)
  describe(`paired runs on loopback, ${v.name}`, { timeout: 120_000, skip: v.skip || false }, () => {
    before(() => {
      io = v.io;
      owned = v.owned;
    });

    it('2 streams bounded by bytes: both ends count exactly what was sent', async () => {
      const bytes = 50_000_001; // odd on purpose: the remainder goes to stream 0
      const { result, responderResult } = await run({ streams: 2, bytes, seconds: null, bufferBytes: 64 * 1024 });
      assert.equal(result.partial, false, result.partialReason ?? '');
      assert.equal(result.schema, 'longhaul.result/1');
      assert.equal(result.streams.length, 2);
      assert.deepEqual(
        result.streams.map((s) => s.bytes),
        [25_000_001, 25_000_000],
      );
      for (const s of result.streams) {
        assert.equal(s.sender, 'controller');
        assert.equal(s.send?.bytes, s.bytes, `stream ${s.id}: sent == received`);
        assert.equal(s.receive?.side, 'responder');
        assert.ok(s.completions > 0 && s.send!.completions === Math.ceil(s.bytes / (64 * 1024)), 'write count = ceil(bytes / buffer)');
        assert.ok(s.seconds !== null && s.seconds > 0);
        assert.ok(s.bitsPerSecond !== null && s.bitsPerSecond > 0);
      }
      assert.equal(result.total.bytes, bytes);
      assert.equal(result.total.sentBytes, bytes);
      assert.ok(result.total.bitsPerSecond! > 0 && result.total.streamSumBitsPerSecond! >= result.total.bitsPerSecond! * 0.99);
      // The intervals add up to the totals, on both views.
      const recv = result.intervals.reduce((a, i) => a + (i.receivedBytes ?? 0), 0);
      const sent = result.intervals.reduce((a, i) => a + (i.sentBytes ?? 0), 0);
      assert.equal(recv, bytes, 'received bytes over intervals');
      assert.equal(sent, bytes, 'sent bytes over intervals');
      // The responder built the same picture from its side.
      assert.ok(responderResult);
      assert.equal(responderResult.writtenBy, 'responder');
      assert.equal(responderResult.total.bytes, bytes);
      assert.equal(responderResult.partial, false);
    });

    it('reverse: the responder sends, the controller receives, exactly', async () => {
      const { result } = await run({ streams: 1, bytes: 20_000_000, seconds: null, direction: 'reverse' });
      assert.equal(result.partial, false, result.partialReason ?? '');
      const s = result.streams[0]!;
      assert.equal(s.sender, 'responder');
      assert.equal(s.receive?.side, 'controller');
      assert.equal(s.bytes, 20_000_000);
      assert.equal(s.send?.bytes, 20_000_000);
      assert.ok(result.directions.responderToController);
      assert.equal(result.directions.controllerToResponder, undefined);
    });

    it('bidir: N streams each way, both directions exact', async () => {
      const { result } = await run({ streams: 2, bytes: 10_000_000, seconds: null, direction: 'bidir' });
      assert.equal(result.partial, false, result.partialReason ?? '');
      assert.equal(result.streams.length, 4);
      assert.deepEqual(
        result.streams.map((s) => s.sender),
        ['controller', 'controller', 'responder', 'responder'],
      );
      assert.equal(result.directions.controllerToResponder?.bytes, 10_000_000);
      assert.equal(result.directions.responderToController?.bytes, 10_000_000);
      assert.equal(result.total.bytes, 20_000_000);
    });

    it('bounded by seconds, with 0.25 s intervals', async () => {
      const { result } = await run({ streams: 1, seconds: 1.5, intervalSeconds: 0.25 });
      assert.equal(result.partial, false, result.partialReason ?? '');
      const s = result.streams[0]!;
      assert.ok(s.seconds! > 1.3 && s.seconds! < 2.5, `stream time ${s.seconds} s`);
      assert.ok(result.total.seconds! > 1.3 && result.total.seconds! < 2.5);
      assert.ok(result.intervals.length >= 5 && result.intervals.length <= 8, `${result.intervals.length} intervals`);
      for (const i of result.intervals.slice(0, -1)) {
        assert.ok(Math.abs(i.seconds - 0.25) < 0.1, `interval ${i.index} lasted ${i.seconds} s`);
        assert.ok(i.controllerT !== null && i.responderT !== null, 'both sides sampled');
      }
      assert.equal(s.bytes, s.send?.bytes);
    });
  });
