import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TickMerger } from '../../../electron/engine/data-plane/tick-merger.js';
import { tcpSample } from '../../helpers/result-fixtures.js';

const tick = (t: number, ...streams: [number, number, number][]) => ({ t, streams, tcp: [] });

test('each worker counts at the same tick, however far ahead another worker is', () => {
  const m = new TickMerger([1, 2]);
  // Worker 0 (stream 1) is two ticks ahead of worker 1 (stream 2).
  m.add(0, 1, tick(0.1, [1, 100, 1]));
  m.add(0, 2, tick(0.2, [1, 200, 2]));
  m.add(0, 3, tick(0.3, [1, 300, 3]));
  m.add(1, 1, tick(0.12, [2, 1000, 10]));
  const one = m.take(1);
  assert.deepEqual(
    one.streams,
    [
      [1, 100, 1],
      [2, 1000, 10],
    ],
    'tick 1 of both, not worker 0 latest (300)',
  );
  assert.equal(one.t, 0.12, 'the later worker clock at that tick');
  m.add(1, 2, tick(0.21, [2, 2000, 20]));
  const two = m.take(2);
  assert.deepEqual(two.streams, [
    [1, 200, 2],
    [2, 2000, 20],
  ]);
  assert.equal(two.t, 0.21);
});

test('a worker with no sample at a tick keeps its last counts; t never goes back', () => {
  const m = new TickMerger([1, 2]);
  m.add(0, 1, tick(0.1, [1, 100, 1]));
  m.add(1, 1, tick(0.1, [2, 50, 1]));
  assert.equal(m.take(1).t, 0.1);
  m.add(0, 2, tick(0.09, [1, 150, 2]));
  const two = m.take(2);
  assert.deepEqual(two.streams, [
    [1, 150, 2],
    [2, 50, 1],
  ]);
  assert.equal(two.t, 0.1);
});

test('the final sample folds everything left, then the last counts of a worker that died', () => {
  const m = new TickMerger([1, 2, 3]);
  m.add(0, 1, tick(0.1, [1, 100, 1]));
  m.add(0, 2, tick(0.2, [1, 180, 2]));
  const last = new Map<number, [number, number, number]>([
    [1, [1, 180, 2]],
    [2, [2, 70, 3]],
    [3, [3, 0, 0]],
  ]);
  const end = m.take(Infinity, last, 0.25);
  assert.deepEqual(end.streams, [
    [1, 180, 2],
    [2, 70, 3],
    [3, 0, 0],
  ]);
  assert.equal(end.t, 0.25);
});

test('the latest TCP_INFO reading per stream rides along, absent when none came', () => {
  const m = new TickMerger([1]);
  m.add(0, 1, tick(0.1, [1, 1, 1]));
  assert.equal(m.take(1).tcp, undefined);
  const reading = tcpSample(2, { t: 0.2, rttUs: 30, rttVarUs: 5, sndCwndSegments: 10, sndCwndBytes: 14480, totalRetransSegments: 0 });
  m.add(0, 2, { t: 0.2, streams: [[1, 2, 2]], tcp: [[1, reading]] });
  assert.deepEqual(m.take(2).tcp, [[1, reading]]);
});
