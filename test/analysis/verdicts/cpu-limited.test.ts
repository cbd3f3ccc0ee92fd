/**
 * CPU-limited: from result.cpu when a run records it (a side or data thread near one core), and
 * "likely, unmeasured" for a fast loopback-like run without it. Built from the recorded link-shallow
 * run (10 Mbit/s, 40 ms, CUBIC on the kernel WAN harness): CPU figures added as a run that measures
 * them records them; the loopback case scales its rate and RTT to what loopback measures (Gbit/s, µs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CpuUse } from '../../../electron/contract/result.js';
import { diagnosed, recorded } from './recorded.js';

const use = (share: number): CpuUse => ({
  userSeconds: 1,
  systemSeconds: 7 * share - 1,
  wallSeconds: 7,
  cores: 2,
  shareOfOneCore: share,
  shareOfPc: share / 2,
  threads: [{ kind: 'receiver', streams: [0], cpuSeconds: 7 * share, shareOfOneCore: share }],
});

describe('cpu-limited', () => {
  it('a receiving data thread at 97 % of a core: cpu-limited, naming the side and the thread', () => {
    const { result } = recorded('link-shallow');
    result.cpu = { controller: use(0.2), responder: use(0.97) };
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /^The receiving side \(the responder\): its receiver thread \(streams 0\) used 97 % of one core/);
    assert.deepEqual(
      advice.map((a) => `${a.side} ${a.topic}`),
      ['responder cpu'],
    );
  });

  it('a CPU at its limit with small segments keeps the CPU verdict and names the segment size beside it', () => {
    const { result } = recorded('link-shallow');
    result.cpu = { controller: use(0.96), responder: use(0.3) };
    result.params.mssBytes = 536;
    for (const s of result.streams)
      for (const e of [s.send, s.receive])
        if (e?.socket) {
          e.socket.sndMssBytes = 524;
          e.socket.pmtuBytes = 65_535;
          e.socket.mssRequestedBytes = 536;
        }
    const { d } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /Segments were small: at most 524 B \(asked for with --mss\)/);
  });

  it('CPU measured and far from a core: the verdict stays the link', () => {
    const { result } = recorded('link-shallow');
    result.cpu = { controller: use(0.2), responder: use(0.3) };
    assert.equal(diagnosed(result).d.verdict, 'link-limited');
  });

  it('loopback speeds without CPU figures: the path is not claimed; CPU likely, said to be unmeasured', () => {
    const { result } = recorded('link-shallow');
    const total = result.directions.controllerToResponder!;
    total.bitsPerSecond = 25e9;
    for (const s of result.streams)
      for (const x of s.send?.tcp ?? []) {
        x.rttUs = 30;
        x.minRttUs = 10;
        x.sndCwndBytes = 4_000_000;
        x.sndWndBytes = 6_000_000;
        x.totalRetransSegments = 0;
      }
    const { d } = diagnosed(result);
    assert.equal(d.verdict, 'cpu-limited', d.sentence);
    assert.match(d.sentence, /CPU was not measured in this run, so this is unconfirmed/);
    assert.doesNotMatch(d.sentence, /the path \(link or receiving host\) is the limit/);
  });
});
