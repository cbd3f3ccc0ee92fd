import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planStreams, DEFAULT_PARAMS, type RunParams } from '../../electron/engine/params.js';
import { RunRecorder } from '../../electron/engine/run-recorder.js';

function recorder(params: RunParams): RunRecorder {
  return new RunRecorder({
    id: 'x', software: 'test', writtenBy: 'controller',
    controller: { hostname: 'c', address: 'local', software: 't' },
    responder: { hostname: 'r', address: 'x', software: 't' },
    params, window: { requestedBytes: null, applied: false, note: 'OS default (autotuning)' }, startedAt: new Date(0),
  }, planStreams(params));
}

describe('RunRecorder intervals', () => {
  it('forward over a slow link: one clock (the receiver\'s), never a zero-length interval with bytes', () => {
    // The responder's clock runs 0.1 s behind (it heard "start" one one-way delay later).
    // The controller (sender) finishes at 5.39 s; the receiver still drains queued bytes until 5.95 s.
    const params = { ...DEFAULT_PARAMS, seconds: 5 };
    const r = recorder(params);
    for (let i = 1; i <= 5; i++) {
      r.addSample('controller', { index: i, t: i + 0.001, final: false, streams: [[0, i * 1000, i]] });
      r.addSample('responder', { index: i, t: i - 0.099, final: false, streams: [[0, i * 900, i]] });
    }
    r.addSample('controller', { index: 6, t: 5.39, final: true, streams: [[0, 5400, 6]] });
    r.addSample('responder', { index: 6, t: 5.95, final: true, streams: [[0, 5400, 7]] });
    r.setEnds('controller', [{ id: 0, role: 'send', bytes: 5400, completions: 6, firstT: 0, lastT: 5.39, error: null }]);
    r.setEnds('responder', [{ id: 0, role: 'receive', bytes: 5400, completions: 7, firstT: 0.01, lastT: 5.95, error: null }]);
    const res = r.build();
    assert.equal(res.intervals.length, 6);
    let prev = 0;
    for (const iv of res.intervals) {
      assert.ok(iv.t >= prev, 'never decreasing');
      assert.ok(iv.seconds > 0.05, `interval ${iv.index} lasts ${iv.seconds} s`);
      assert.equal(iv.t, iv.responderT, 'forward: the responder (receiver) clock');
      prev = iv.t;
    }
    assert.equal(res.intervals.reduce((a, i) => a + (i.receivedBytes ?? 0), 0), 5400);
    assert.equal(res.partial, false);
  });

  it('a side missing a tick: its time is taken from the other side, shifted onto the reference clock', () => {
    const params = { ...DEFAULT_PARAMS, seconds: 3, direction: 'reverse' as const };
    const r = recorder(params);
    r.addSample('controller', { index: 1, t: 1.0, final: false, streams: [[0, 100, 1]] });
    r.addSample('responder', { index: 1, t: 0.8, final: false, streams: [[0, 120, 1]] });
    r.addSample('controller', { index: 2, t: 2.0, final: false, streams: [[0, 200, 2]] });
    r.addSample('responder', { index: 2, t: 1.8, final: false, streams: [[0, 220, 2]] });
    r.addSample('responder', { index: 3, t: 2.8, final: false, streams: [[0, 320, 3]] }); // the controller's tick 3 never came
    const res = r.build();
    assert.equal(res.intervals[2]?.t, 2.8 + 0.2);
    assert.equal(res.intervals[2]?.controllerT, null);
    assert.equal(res.intervals[2]?.receivedBytes, null, 'the receiver (controller) did not sample it: unknown, not 0');
    assert.equal(res.partial, true, 'no end reports: partial');
  });
});
