/**
 * CPU-limited on one PC: both ends on this PC with its cores near fully busy. From a recorded
 * `longhaul loopback -t 3` run (test/analysis/fixtures/loopback.json, the `loopback` scenario of
 * test/wan/diagnosis-scenarios.ts written by record-diagnosis-fixtures.ts, a shared 2-core Linux VM):
 * 18 Gbit/s with the sender thread at 60 % and the receiver thread at 34 % of one core (waiting for a
 * core 36 % and 17 % of the transfer), and /proc/stat counting both cores 99 % busy. Before the PC's own
 * figures were read, such a run was "application-limited" with `--buffer 1M` advice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('cpu-limited: both ends on this PC', () => {
  it("the recorded loopback run: this PC's CPU, shared by both ends and the kernel; advice names two PCs, not buffers", () => {
    const { result } = recorded('loopback');
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /^Both ends ran on this PC, and its 2 cores were 99 % busy over the transfer \(13 % of their time in interrupts and softirq\)/);
    assert.match(d.sentence, /controller used 61 % of one core and its responder 34 % of one core/);
    assert.match(d.sentence, /waited for a core \(ready to run, not running\): the sender thread 36 %, the receiver thread 17 % of the transfer/);
    assert.match(d.sentence, /this PC's CPU, shared by both ends and the kernel, is the limit, not the network\./);
    assert.deepEqual(
      advice.map((a) => `${a.side} ${a.topic}`),
      ['controller cpu'],
    );
    assert.match(advice[0]!.neededValue, /two PCs/);
    assert.match(advice[0]!.how, /run again with -P 2 \(now 1\)/);
    assert.doesNotMatch(JSON.stringify(advice), /--buffer/);
  });

  it('the receiver fell behind and its window filled (rwnd-limited): still this PC, not the receive window', () => {
    const { result } = recorded('loopback');
    for (const st of result.streams) for (const x of st.send?.tcp ?? []) x.rwndLimitedUs = x.busyUs;
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /shared by both ends and the kernel/);
    assert.ok(!advice.some((a) => a.topic === 'receive-window'), advice.map((a) => a.topic).join(', '));
  });

  it('the same with a window the user set (--window): the window rule is asked before this PC', () => {
    const { result } = recorded('loopback');
    for (const st of result.streams) for (const x of st.send?.tcp ?? []) x.rwndLimitedUs = x.busyUs;
    result.params.windowBytes = 65_536;
    assert.equal(diagnosed(result).d.verdict, 'window-limited');
  });

  it("both ends on this PC but its cores' busy share not measured: unknown, in words", () => {
    const { result } = recorded('loopback');
    for (const side of ['controller', 'responder'] as const) result.cpu![side]!.pc = null;
    const { d } = diagnosed(result);
    assert.notEqual(d.verdict, 'link-limited', d.sentence);
    assert.match(d.sentence, /how busy (this PC's|its) cores were was not measured/);
    assert.doesNotMatch(d.sentence, /shared by both ends and the kernel, is the limit/);
  });

  it('the same figures with the ends on two PCs: the one-PC rule does not apply', () => {
    const { result } = recorded('loopback');
    result.cpu!.samePc = false;
    const { d } = diagnosed(result);
    assert.doesNotMatch(d.sentence, /Both ends ran on this PC/);
  });

  it('one PC whose cores had time to spare (60 % busy) on a fast sub-millisecond run: still this PC, and the spare time is said', () => {
    // A quiet CI machine's loopback run (22 Gbit/s, RTT 112 µs) was called "link-limited … the path is the limit":
    // with both ends on one PC there is no network to blame; the threads took turns on the cores.
    const { result } = recorded('loopback');
    for (const side of ['controller', 'responder'] as const) result.cpu![side]!.pc!.busyShare = 0.6;
    const { d } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /60 % busy over the transfer .*not all the time: the threads also waited on each other and for a core/);
  });
});
