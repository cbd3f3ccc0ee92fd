/**
 * A receiver that handles the start message late. The sender starts at its own t = 0; the
 * receiving side's clock starts when its event loop handles the start message. Controller and
 * responder share one event loop here (as in the app), and it is blocked for BLOCK_MS right after
 * the start goes out: the responder's data workers (their own threads) read bytes all that time,
 * before the responder's clock has started. Those bytes belong to the first interval, which must
 * then begin at the first byte, not at 0 (a fresh-clone CI once read 27.4 Mbit/s in the first
 * 0.25 s of a 20 Mbit/s link: ~90 ms of bytes in an interval said to be 250 ms long).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { startResponder, within } from '../helpers/net.js';

const BLOCK_MS = 400;

const responders: Responder[] = [];
after(async () => {
  await Promise.all(responders.map((r) => r.close()));
});

function blockEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // the responder's main thread cannot handle its start message meanwhile
  }
}

describe('a receiver whose start is handled late', { timeout: 60_000 }, () => {
  it('begins its first interval at its first byte: no interval holds bytes from before it began', async () => {
    const { responder, port, security } = await startResponder();
    responders.push(responder);
    const responderEnd = new Promise<LonghaulResult | null>((resolve) => responder.once('session-end', (res: LonghaulResult | null) => resolve(res)));
    // A paced sender (Longhaul's own pacing or the kernel's): the rate is known, so bytes per interval are bounded.
    const rate = 40e6;
    const params = { ...DEFAULT_PARAMS, streams: 1, seconds: 2, bytes: null, intervalSeconds: 0.25, bitrateBitsPerSec: rate, bufferBytes: 16 * 1024 };
    const run = startRun({ host: '127.0.0.1', port, security, params });
    run.once('phase', function onPhase(p) {
      // 'start' is told just before the start message and the data go out: block the loop right after them.
      if (p === 'start') setImmediate(() => blockEventLoop(BLOCK_MS));
      else run.once('phase', onPhase);
    });
    const result = await within(run.result, 30_000, 'the run');
    const responderResult = await within(responderEnd, 5_000, "the responder's end");
    assert.equal(result.partial, false, result.partialReason ?? '');

    for (const r of [result, responderResult!]) {
      const firstByte = Math.min(...r.streams.map((s) => s.receive?.firstT ?? Infinity));
      // The responder's clock started after the block: its first byte came before its 0 (the block, less the
      // time the start message and the first bytes took to arrive: well over half of it on any PC).
      assert.ok(firstByte < -BLOCK_MS / 2000, `first byte at ${firstByte} s on the receiver's clock`);
      const [first] = r.intervals;
      assert.ok(first, 'intervals');
      // Physics: an interval cannot hold a byte read before it began.
      assert.ok(first.t - first.seconds <= firstByte + 1e-6, `first interval from ${first.t - first.seconds} s, first byte at ${firstByte} s`);
      // The intervals tile the receiver's time from that first byte: their lengths add up to the last one's end.
      const total = r.intervals.reduce((s, iv) => s + iv.seconds, 0);
      const last = r.intervals.at(-1)!;
      assert.ok(Math.abs(total - (last.t - (first.t - first.seconds))) < 1e-6, `lengths ${total} s vs span`);
      // No interval reads faster than the paced sender (10 %: the pacer's burst and the tick's jitter),
      // which the first one did when its bytes of BLOCK_MS were put in 0.25 s.
      for (const iv of r.intervals.filter((x) => x.seconds > 0.1)) {
        const bps = ((iv.receivedBytes ?? 0) * 8) / iv.seconds;
        assert.ok(bps < 1.1 * rate, `${(bps / 1e6).toFixed(1)} Mbit/s in the interval ending at ${iv.t.toFixed(3)} s (paced at ${rate / 1e6})`);
      }
    }
  });
});
