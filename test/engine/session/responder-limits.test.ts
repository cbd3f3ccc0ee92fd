/**
 * A paired controller cannot exceed its responder's limits: parameters over a
 * limit are refused naming the limit and its flag; a byte-limited run is held
 * to the wall-clock limit, a time-limited one to the byte budget (both
 * directions together), each ending partial with the reason on both sides.
 */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import { startRun } from '../../../electron/engine/session/controller.js';
import { planStreams } from '../../../electron/contract/stream-plan.js';
import { DEFAULT_PARAMS, type RunParams } from '../../../electron/protocol/run-params.js';
import {
  LIMIT_ANSWER_MS,
  paramsOverLimits,
  RunLimitGuard,
  streamCaps,
  DEFAULT_RESPONDER_LIMITS,
  type ResponderLimits,
} from '../../../electron/engine/session/responder-limits.js';
import { startResponder, within } from '../../helpers/net.js';

/** The partner as the guard's reasons name it. */
const CONTROLLER = 'the controller lab-1 (192.0.2.1:40000)';

async function runAgainst(
  limits: Partial<ResponderLimits>,
  params: RunParams,
): Promise<{ result: LonghaulResult; responderResult: LonghaulResult | null; seconds: number }> {
  const { responder, port, security } = await startResponder({ limits, maxWorkersPerRole: 1 });
  try {
    const ended = new Promise<LonghaulResult | null>((r) => responder.once('session-end', (res) => r(res)));
    const started = Date.now();
    const result = await within(startRun({ host: '127.0.0.1', port, security, params, maxWorkersPerRole: 1 }).result, 30_000, 'the run');
    return { result, responderResult: await within(ended, 10_000, 'the responder session'), seconds: (Date.now() - started) / 1000 };
  } finally {
    await responder.close();
  }
}

describe('responder limits', { timeout: 120_000 }, () => {
  it('refuses what is over a limit, naming it: streams both ways, bytes both ways, the window', () => {
    const limits = { ...DEFAULT_RESPONDER_LIMITS, maxStreams: 8, maxBytes: 1000, maxWindowBytes: 65_536 };
    assert.deepEqual(paramsOverLimits({ ...DEFAULT_PARAMS, streams: 8 }, limits), []);
    assert.match(
      paramsOverLimits({ ...DEFAULT_PARAMS, streams: 5, direction: 'bidir' }, limits).join(),
      /10 streams \(5 each way\): this responder allows 8 \(--max-streams\)/,
    );
    assert.match(
      paramsOverLimits({ ...DEFAULT_PARAMS, seconds: null, bytes: 600, direction: 'bidir' }, limits).join(),
      /1200 bytes \(600 each way\).*--max-bytes/,
    );
    assert.deepEqual(paramsOverLimits({ ...DEFAULT_PARAMS, seconds: null, bytes: 600 }, limits), []);
    assert.match(paramsOverLimits({ ...DEFAULT_PARAMS, windowBytes: 1 << 20 }, limits).join(), /window of 1048576 bytes.*--max-window/);
  });

  it('a window over the limit is refused with LH_ERR_PARAMS_REJECTED', async () => {
    const { result } = await runAgainst({ maxWindowBytes: 65_536 }, { ...DEFAULT_PARAMS, windowBytes: 1 << 20, seconds: 1 });
    assert.equal(result.errors[0]?.code, 'LH_ERR_PARAMS_REJECTED');
    assert.match(result.errors[0]!.message, /--max-window/);
  });

  it('a byte-limited run of a petabyte ends at the wall-clock limit, partial, with the reason on both sides', async () => {
    const { result, responderResult, seconds } = await runAgainst(
      { maxSeconds: 2, maxBytes: 1e16 },
      { ...DEFAULT_PARAMS, seconds: null, bytes: 1e15, intervalSeconds: 0.5 },
    );
    assert.ok(seconds < 12, `ended after ${seconds.toFixed(1)} s`);
    assert.equal(result.partial, true);
    assert.match(result.partialReason ?? '', /limit of 2 s \(--max-seconds\)/);
    assert.ok(result.total.bytes > 0, 'what moved is kept');
    assert.match(responderResult?.partialReason ?? '', /--max-seconds/);
  });

  it('a time-limited run is held to the byte budget, both directions counted', async () => {
    const budget = 200e6;
    const { result, seconds } = await runAgainst({ maxBytes: budget }, { ...DEFAULT_PARAMS, seconds: 20, direction: 'bidir', intervalSeconds: 0.2 });
    assert.equal(result.partial, true);
    assert.match(result.partialReason ?? '', /limit of .* per run \(--max-bytes\)/);
    assert.ok(seconds < 15, `stopped early (${seconds.toFixed(1)} s of 20)`);
    const both = (result.directions.controllerToResponder?.bytes ?? 0) + (result.directions.responderToController?.bytes ?? 0);
    // Held by the workers, stream by stream (a share each, the native loop exactly, Node's within one 128 KiB read).
    assert.ok(both <= budget + 2 * 128 * 1024, `moved ${both} B against the ${budget} B budget`);
  });

  it('a time-limited run as long as the limit gets its own length and the slack, not the limit as its deadline', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const reasons: string[] = [];
      const limits = { ...DEFAULT_RESPONDER_LIMITS, maxSeconds: 3600 };
      const guard = new RunLimitGuard(limits, { ...DEFAULT_PARAMS, seconds: 3600 }, CONTROLLER, (r) => reasons.push(r));
      mock.timers.tick(3600 * 1000 + 1000);
      assert.equal(reasons.length, 0, 'an hour-long run under a one-hour limit is not cut at its last second');
      mock.timers.tick(10_000);
      assert.equal(reasons.length, 1);
      assert.equal(reasons[0], 'the run went on 10 s past its own 3600 s without the controller lab-1 (192.0.2.1:40000) stopping it');
      guard.dispose();
      const bytes = new RunLimitGuard(limits, { ...DEFAULT_PARAMS, seconds: null, bytes: 1e15 }, CONTROLLER, (r) => reasons.push(r));
      mock.timers.tick(3600 * 1000);
      assert.match(reasons[1] ?? '', /limit of 3600 s \(--max-seconds\)/);
      bytes.dispose();
    } finally {
      mock.timers.reset();
    }
  });

  it('a controller that has not stopped 5 s after a limit is cut off; one that stops in time is not', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const limits = { ...DEFAULT_RESPONDER_LIMITS, maxBytes: 1000 };
      const cutOff: string[] = [];
      const deaf = new RunLimitGuard(
        limits,
        { ...DEFAULT_PARAMS, seconds: 10 },
        CONTROLLER,
        () => undefined,
        (r) => cutOff.push(r),
      );
      deaf.onCap(2, 1, 500);
      mock.timers.tick(LIMIT_ANSWER_MS - 1);
      assert.equal(cutOff.length, 0);
      mock.timers.tick(1);
      assert.match(cutOff[0] ?? '', /stream 1 moved 500 B, its share of .* over 2 stream ends.*\(--max-bytes\)/);
      deaf.dispose();
      const honest = new RunLimitGuard(
        limits,
        { ...DEFAULT_PARAMS, seconds: 10 },
        CONTROLLER,
        () => undefined,
        (r) => cutOff.push(r),
      );
      honest.onCap(2, 0, 500);
      honest.dispose(); // its stop arrived
      mock.timers.tick(LIMIT_ANSWER_MS * 2);
      assert.equal(cutOff.length, 1);
    } finally {
      mock.timers.reset();
    }
  });

  it('caps: a byte-limited run its planned bytes, a time-limited one equal shares of --max-bytes', () => {
    const limits = { ...DEFAULT_RESPONDER_LIMITS, maxBytes: 1000 };
    assert.deepEqual([...streamCaps(planStreams({ ...DEFAULT_PARAMS, streams: 3 }), limits).values()], [333, 333, 333]);
    assert.deepEqual([...streamCaps(planStreams({ ...DEFAULT_PARAMS, streams: 2, bytes: 901 }), limits).values()], [451, 450]);
  });

  it('the default byte budget lets an hour at 100 Gbit/s through (1 TiB cut a loopback hour after 6 minutes)', () => {
    const hourAt100G = (100e9 / 8) * 3600;
    assert.deepEqual(paramsOverLimits({ ...DEFAULT_PARAMS, seconds: null, bytes: hourAt100G }, DEFAULT_RESPONDER_LIMITS), []);
    const reasons: string[] = [];
    const guard = new RunLimitGuard(DEFAULT_RESPONDER_LIMITS, { ...DEFAULT_PARAMS, seconds: 3600 }, CONTROLLER, (r) => reasons.push(r));
    guard.onSample([[0, hourAt100G, 1]]);
    guard.dispose();
    assert.equal(reasons.length, 0);
  });
});
