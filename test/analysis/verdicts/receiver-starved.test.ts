/**
 * Receiver-limited by its CPU, from a real run: test/analysis/fixtures/receiver-cpu.json, recorded on the
 * kernel WAN harness (10 Gbit/s tbf, no added delay, CUBIC) with the receiving data worker held to 5 % of
 * one core by a cgroup v1 quota. Its reader thread ran 5 % of a core and waited for one 94 % of the
 * transfer; the sender saw an open window and a long RTT (the throttled reader held its socket, so ACKs
 * waited), which the rules before the thread's run-queue wait called "link-limited: the path is the limit".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('receiver-limited: a reader starved of CPU', () => {
  it("the recorded quota run: the receiving application's CPU, advice on the receiving application, no buffer advice", () => {
    const { result } = recorded('receiver-cpu');
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'receiver-limited', d.sentence);
    assert.match(
      d.sentence,
      /^The receiving side \(the responder\) was starved of CPU: its receiver thread \(stream 0\) had data to read nearly all the time but ran only 5 % of one core/,
    );
    assert.deepEqual(
      advice.map((a) => `${a.side} ${a.topic}`),
      ['responder application'],
    );
    assert.doesNotMatch(JSON.stringify(advice), /rmem|wmem|--window|--buffer/);
    assert.match(advice[0]!.why, /mostly waited for a core/);
  });

  it('the same reader with a core to spare (waited 10 % of the transfer): not starved', () => {
    const { result } = recorded('receiver-cpu');
    const use = result.cpu!.responder!;
    for (const t of use.threads ?? []) t.waitSeconds = 0.1 * use.wallSeconds;
    assert.doesNotMatch(diagnosed(result).d.sentence, /starved of CPU/);
  });

  it('a reader that slept for data half the time (waited 45 %, ran 5 %): not starved', () => {
    const { result } = recorded('receiver-cpu');
    const use = result.cpu!.responder!;
    for (const t of use.threads ?? []) t.waitSeconds = 0.45 * use.wallSeconds;
    assert.doesNotMatch(diagnosed(result).d.sentence, /starved of CPU/);
  });

  it('the quota run on a PC whose other programs kept both cores busy (ran 5 %, waited 73 %, slept 22 % while the sender was late): still starved', () => {
    const { result } = recorded('receiver-cpu');
    const use = result.cpu!.responder!;
    for (const t of use.threads ?? []) t.waitSeconds = 0.73 * use.wallSeconds;
    const { d } = diagnosed(result);
    assert.equal(d.case, 'receiver-limited/cpu-starved', d.sentence);
    assert.equal(d.figures?.readerWaitShare?.value, 0.73);
  });

  it('the wait unknown (an OS that does not say): the rule does not guess', () => {
    const { result } = recorded('receiver-cpu');
    for (const t of result.cpu!.responder!.threads ?? []) t.waitSeconds = null;
    assert.notEqual(diagnosed(result).d.verdict, 'receiver-limited');
  });
});
