/**
 * CPU-limited on one PC: both ends on this PC with its cores near fully busy. From a recorded
 * `longhaul loopback -t 3` run (test/analysis/fixtures/loopback.json, a shared 2-core Linux VM):
 * 14 Gbit/s with the sender thread at 54 % and the receiver thread at 39 % of one core, the sender's
 * socket empty 14 % of its time, and /proc/stat counting both cores 99.8 % busy. Before the PC's own
 * figures were read, the same run was "application-limited" with `--buffer 1M` advice. The fixture was
 * written from `node bin/longhaul.js loopback -t 3 --json <file>` as `{recorded, result}`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('cpu-limited: both ends on this PC', () => {
  it("the recorded loopback run: this PC's CPU, shared by both ends and the kernel; advice names two PCs, not buffers", () => {
    const { result } = recorded('loopback');
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /^Both ends ran on this PC, and its 2 cores were 100% busy over the transfer \(13% of their time in interrupts and softirq\)/);
    assert.match(d.sentence, /controller used 55% of one core and its responder 40% of one core/);
    assert.match(d.sentence, /this PC's CPU, shared by both ends and the kernel, is the limit, not the network\./);
    assert.deepEqual(
      advice.map((a) => `${a.side} ${a.topic}`),
      ['controller cpu'],
    );
    assert.match(advice[0]!.neededValue, /two PCs/);
    assert.match(advice[0]!.how, /-P 1, -P 2/);
    assert.doesNotMatch(JSON.stringify(advice), /--buffer/);
  });

  it("both ends on this PC but its cores' busy share not measured: unknown, in words", () => {
    const { result } = recorded('loopback');
    for (const side of ['controller', 'responder'] as const) result.cpu![side]!.pc = null;
    const { d } = diagnosed(result);
    assert.notEqual(d.verdict, 'link-limited', d.sentence);
    assert.match(d.sentence, /how busy this PC's cores were was not measured/);
    assert.doesNotMatch(d.sentence, /shared by both ends and the kernel, is the limit/);
  });

  it('the same figures with the ends on two PCs: the one-PC rule does not apply', () => {
    const { result } = recorded('loopback');
    result.cpu!.samePc = false;
    const { d } = diagnosed(result);
    assert.doesNotMatch(d.sentence, /Both ends ran on this PC/);
  });

  it("one PC whose cores had time to spare (60 % busy): not this PC's CPU", () => {
    const { result } = recorded('loopback');
    for (const side of ['controller', 'responder'] as const) result.cpu![side]!.pc!.busyShare = 0.6;
    const { d } = diagnosed(result);
    assert.doesNotMatch(d.sentence, /shared by both ends and the kernel, is the limit/);
  });
});
