/**
 * How many worker processes each role gets: one per core, at most one per stream; the user's --workers wins;
 * and the one exception, senders on the same PC as their receivers with writes larger than a core's own cache
 * (docs/measurements.md#same-pc-senders), which must hold in both roles' mirror: it never touches receivers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workerCount } from '../../../electron/engine/data-plane/worker-slot.js';

const K = 1024;
const M = 1024 * K;

describe('worker processes per role', () => {
  it('one per core, at most one per stream, at least one', () => {
    for (const role of ['send', 'receive'] as const) {
      assert.equal(workerCount(role, 1, { cores: 8, l2Bytes: null }), 1);
      assert.equal(workerCount(role, 4, { cores: 8, l2Bytes: null }), 4);
      assert.equal(workerCount(role, 16, { cores: 8, l2Bytes: null }), 8);
      assert.equal(workerCount(role, 0, { cores: 8, l2Bytes: null }), 1);
      assert.equal(workerCount(role, 3, { cores: 0, l2Bytes: null }), 1, 'a PC reporting no cores still gets a worker');
    }
  });

  it("the user's --workers wins over the cores and over the same-PC rule", () => {
    assert.equal(workerCount('send', 8, { cores: 2, maxWorkersPerRole: 4, l2Bytes: null }), 4);
    assert.equal(workerCount('send', 2, { cores: 2, maxWorkersPerRole: 2, samePc: true, writeBytes: M, l2Bytes: 512 * K }), 2);
    assert.equal(workerCount('receive', 8, { cores: 8, maxWorkersPerRole: 1, l2Bytes: null }), 1);
  });

  it("same PC, writes larger than a core's cache: the senders take half the cores", () => {
    const base = { samePc: true, writeBytes: M, l2Bytes: 512 * K };
    assert.equal(workerCount('send', 2, { ...base, cores: 2 }), 1);
    assert.equal(workerCount('send', 4, { ...base, cores: 2 }), 1);
    assert.equal(workerCount('send', 8, { ...base, cores: 8 }), 4);
    assert.equal(workerCount('send', 2, { ...base, cores: 1 }), 1, 'never below one');
  });

  it("the rule's edges: a write that fits the cache, another PC, an unknown PC or an unknown cache leave one per core", () => {
    const at = (o: object) => workerCount('send', 2, { cores: 2, samePc: true, writeBytes: M, l2Bytes: 512 * K, ...o });
    assert.equal(at({ writeBytes: 512 * K }), 2, 'a write exactly the cache size fits it');
    assert.equal(at({ writeBytes: 128 * K }), 2);
    assert.equal(at({ samePc: false }), 2, 'two PCs: the receivers have cores of their own');
    assert.equal(at({ samePc: null }), 2, 'not known: taken as another PC');
    assert.equal(at({ l2Bytes: null }), 2, 'unknown cache: nothing decided from it');
  });

  it('receivers are never cut, in either direction of the same PC', () => {
    assert.equal(workerCount('receive', 2, { cores: 2, samePc: true, writeBytes: M, l2Bytes: 512 * K }), 2);
    assert.equal(workerCount('receive', 4, { cores: 2, samePc: true, writeBytes: 4 * M, l2Bytes: 512 * K }), 2);
  });
});
