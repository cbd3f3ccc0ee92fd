/**
 * The responder holds a paired controller to its limits on what it receives,
 * whatever the controller does: one that ignores the responder's stop (built
 * here from the real controller, never shipped) is cut at --max-seconds and at
 * --max-bytes, and a controller sampling once a minute (-i 60) moves no more
 * than --max-bytes. The byte cap is the workers', on the native and Node loops.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { ControllerRun, type ControllerOptions } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import { type ResponderLimits, LIMIT_ANSWER_MS } from '../../electron/engine/session/responder-limits.js';
import type { StreamIo } from '../../electron/native/data-path.js';
import { DATA_PATH_ENV } from '../../electron/native/switches.js';
import type { Message } from '../../electron/protocol/messages.js';
import { LinkProxy } from '../../electron/proxy/link-proxy.js';
import { parseLinkSpec } from '../../electron/proxy/link-settings.js';
import { startResponder, within } from '../helpers/net.js';

/** The most Node's loop reads past a cap: one read of its receive buffer (data-worker/worker.ts RECEIVE_BUFFER_MAX_BYTES). */
const NODE_READ_BYTES = 128 * 1024;

/** A controller that never hears the responder's stop: the real one with `case 'stop'` dropped. */
class DeafController extends ControllerRun {}
const real = ControllerRun.prototype as unknown as { onMessage(m: Message): void };
(DeafController.prototype as unknown as typeof real).onMessage = function (this: ControllerRun, m: Message): void {
  if (m.type !== 'stop') real.onMessage.call(this, m);
};

/** Deaf, and mute at its end too: it never sends its stop, so only the responder can end the session. */
class MuteController extends DeafController {}
(MuteController.prototype as unknown as { sendStop(): void }).sendStop = () => undefined;

interface Outcome {
  result: LonghaulResult;
  responderResult: LonghaulResult | null;
  seconds: number;
  /** Bytes the responder's receivers counted. */
  received: number;
}

async function run(opts: { limits: Partial<ResponderLimits>; params: RunParams; deaf: boolean | 'mute'; rateBitsPerSec?: number }): Promise<Outcome> {
  const { responder, port, security } = await startResponder({ limits: opts.limits, maxWorkersPerRole: 1 });
  const proxy = opts.rateBitsPerSec
    ? new LinkProxy({ target: { host: '127.0.0.1', port }, link: parseLinkSpec({ up: [{ type: 'rate', rateBitsPerSec: opts.rateBitsPerSec }], down: [] }) })
    : null;
  try {
    const dial = proxy ? (await proxy.listen()).port : port;
    const ended = new Promise<LonghaulResult | null>((r) => responder.once('session-end', (res) => r(res)));
    const started = Date.now();
    const runOpts: ControllerOptions = { host: '127.0.0.1', port: dial, security, params: opts.params, maxWorkersPerRole: 1 };
    const Controller = opts.deaf === 'mute' ? MuteController : opts.deaf ? DeafController : ControllerRun;
    const controller = new Controller(runOpts);
    const result = await within(controller.result, 60_000, 'the run');
    const responderResult = await within(ended, 20_000, 'the responder session');
    const seconds = (Date.now() - started) / 1000;
    const received = (responderResult?.streams ?? []).reduce((a, s) => a + (s.receive?.side === 'responder' ? s.receive.bytes : 0), 0);
    return { result, responderResult, seconds, received };
  } finally {
    await proxy?.close();
    await responder.close();
  }
}

describe('the responder enforces its limits on what it receives', { timeout: 240_000 }, () => {
  after(() => {
    delete process.env[DATA_PATH_ENV];
  });

  it('a controller ignoring stop is cut at --max-seconds: -n 40M through a 10 Mbit/s link (32 s of data) against 2 s', async (t) => {
    const { responderResult, seconds, received } = await run({
      limits: { maxSeconds: 2 },
      params: { ...DEFAULT_PARAMS, seconds: null, bytes: 40e6, intervalSeconds: 0.5 },
      deaf: true,
      rateBitsPerSec: 10e6,
    });
    t.diagnostic(`read ${received} B of 40 MB; ended after ${seconds.toFixed(1)} s`);
    // Before: the whole 40 MB arrived (17.5 s at 20 Mbit/s). Now: about 2 s of the link, and the session ends in seconds.
    assert.ok(received < 0.25 * 40e6, `the responder read ${received} B of 40 MB`);
    assert.ok(seconds < 16, `ended after ${seconds.toFixed(1)} s, half of what the data needs`);
    assert.match(responderResult?.partialReason ?? '', /limit of 2 s \(--max-seconds\)/);
    assert.ok(responderResult?.errors.some((e) => e.code === 'LH_ERR_RESPONDER_LIMIT'));
  });

  for (const io of ['native', 'node'] as StreamIo[]) {
    it(`a controller ignoring stop is held to --max-bytes, 2 streams for 4 s (${io} loop)`, async (t) => {
      process.env[DATA_PATH_ENV] = io;
      const maxBytes = 64e6;
      const { result, responderResult, received } = await run({
        limits: { maxBytes },
        // Two streams: a worker with more receivers than CPUs reads on Node's loop whatever is asked.
        params: { ...DEFAULT_PARAMS, streams: 2, seconds: 4, intervalSeconds: 0.5 },
        deaf: true,
      });
      t.diagnostic(`${io}: read ${received} B against a cap of ${maxBytes} B`);
      const bound = maxBytes + (io === 'node' ? 2 * NODE_READ_BYTES : 0);
      assert.ok(received <= bound, `the responder read ${received} B, cap ${maxBytes} B + ${bound - maxBytes} B`);
      assert.ok(received > 0.5 * maxBytes, `it did read up to the cap (${received} B)`);
      assert.ok(
        responderResult?.streams.every((s) => s.receive?.io === io),
        `the ${io} loop read`,
      );
      assert.match(responderResult?.partialReason ?? '', /\(--max-bytes\)/);
      assert.ok(responderResult?.errors.some((e) => e.code === 'LH_ERR_RESPONDER_LIMIT'));
      assert.match(result.partialReason ?? '', /--max-bytes/);
    });
  }

  it('a controller that never stops is cut off LIMIT_ANSWER_MS after the limit, with LH_ERR_RESPONDER_LIMIT on both sides', async (t) => {
    delete process.env[DATA_PATH_ENV];
    const { result, responderResult, seconds, received } = await run({
      limits: { maxBytes: 32e6 },
      params: { ...DEFAULT_PARAMS, seconds: 30, intervalSeconds: 0.5 },
      deaf: 'mute',
    });
    t.diagnostic(`read ${received} B; the session ended after ${seconds.toFixed(1)} s of a 30 s run`);
    assert.ok(received <= 32e6 + NODE_READ_BYTES, `read ${received} B`);
    assert.ok(seconds < (LIMIT_ANSWER_MS + 10_000) / 1000, `ended after ${seconds.toFixed(1)} s`);
    assert.ok(
      result.errors.some((e) => e.code === 'LH_ERR_RESPONDER_LIMIT'),
      `the controller was told why: ${JSON.stringify(result.errors)}`,
    );
    assert.ok(responderResult?.errors.some((e) => e.code === 'LH_ERR_RESPONDER_LIMIT'));
    assert.match(responderResult?.partialReason ?? '', /--max-bytes/);
  });

  it('-i 60 cannot stretch --max-bytes: the workers check their own counts, not the samples', async (t) => {
    delete process.env[DATA_PATH_ENV];
    const maxBytes = 64e6;
    for (const direction of ['forward', 'reverse'] as const) {
      const { result, responderResult, received } = await run({
        limits: { maxBytes },
        params: { ...DEFAULT_PARAMS, seconds: 6, intervalSeconds: 60, direction },
        deaf: false,
      });
      const moved = direction === 'forward' ? received : (result.directions.responderToController?.bytes ?? 0);
      t.diagnostic(`${direction}: moved ${moved} B against a cap of ${maxBytes} B`);
      assert.ok(moved <= maxBytes + NODE_READ_BYTES, `${direction}: moved ${moved} B against a cap of ${maxBytes} B`);
      assert.match(result.partialReason ?? '', /--max-bytes/, direction);
      assert.ok(
        result.errors.some((e) => e.code === 'LH_ERR_RESPONDER_LIMIT'),
        `${direction}: the controller got the code: ${JSON.stringify(result.errors)}`,
      );
      assert.match(responderResult?.partialReason ?? '', /--max-bytes/);
    }
  });
});
