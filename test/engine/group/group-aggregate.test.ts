/** The multi-peer aggregate on synthetic results: interval alignment, unknowns, both conventions, the diagnosis. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GroupPeer } from '../../../electron/contract/group.js';
import type { IntervalResult, LonghaulResult, PartialRate } from '../../../electron/contract/result.js';
import { sumOfText } from '../../../electron/contract/group-text.js';
import { formatGroupConsoleLog } from '../../../electron/report/group-log.js';
import { formatGroupSummary } from '../../../electron/report/group-summary.js';
import { buildGroupResult, groupDiagnosis, groupIntervals, groupTotal, type GroupMeta } from '../../../electron/engine/group/group-aggregate.js';
import { makeIntervals, makeResult } from '../../helpers/result-fixtures.js';

function peer(index: number, result: LonghaulResult, startOffsetSeconds: number | null = 0): GroupPeer {
  return { index, address: `192.0.2.${index + 1}:5211`, hostname: `h${index}`, software: 'x', role: 'sender', startOffsetSeconds, result };
}

const meta: GroupMeta = {
  id: 'g',
  software: 'x',
  startedAt: new Date(0),
  endedAt: new Date(1000),
  controller: { hostname: 'me', address: 'local', software: 'x' },
  params: makeResult({ streams: [{ bytes: 1, seconds: 1, completions: 1 }] }).params,
  startFailure: null,
  errors: [],
};

/** A peer moving `perInterval` bytes in each of `n` one-second intervals, one stream starting at `firstT`. */
function steady(perInterval: number, n: number, firstT = 0, partialReason: string | null = null): LonghaulResult {
  return makeResult({
    streams: [{ bytes: perInterval * n, seconds: n, completions: n, firstT }],
    intervals: makeIntervals(Array.from({ length: n }, (_, i) => ({ t: i + 1, received: [perInterval] }))),
    partialReason,
  });
}

describe('group aggregate', () => {
  it('aligns intervals by index and sums the peers; a shifted peer moves the group clock', () => {
    const ivs = groupIntervals([peer(0, steady(100, 3)), peer(1, steady(50, 3), 0.002)]);
    assert.deepEqual(
      ivs.map((iv) => iv.index),
      [1, 2, 3],
    );
    assert.deepEqual(
      ivs.map((iv) => iv.peerReceivedBytes),
      [
        [100, 50],
        [100, 50],
        [100, 50],
      ],
    );
    assert.deepEqual(
      ivs.map((iv) => iv.receivedBytes),
      [150, 150, 150],
    );
    assert.ok(Math.abs(ivs[0]!.t - 1.002) < 1e-12, 'the later peer ends the interval on the group clock');
    assert.ok(Math.abs(ivs[2]!.seconds - 1) < 1e-12);
  });

  it('a peer missing an interval is unknown, not 0, and so is the sum', () => {
    const gappy = steady(50, 3);
    gappy.intervals = gappy.intervals.filter((iv: IntervalResult) => iv.index !== 2);
    const ivs = groupIntervals([peer(0, steady(100, 3)), peer(1, gappy)]);
    assert.deepEqual(ivs[1]!.peerReceivedBytes, [100, null]);
    assert.equal(ivs[1]!.receivedBytes, null);
    assert.equal(ivs[2]!.receivedBytes, 150);
  });

  it("after a vanished peer's last interval it is unknown; after a completed peer's end it moved 0", () => {
    const ivs = groupIntervals([peer(0, steady(100, 4)), peer(1, steady(50, 2, 0, 'peer gone')), peer(2, steady(10, 2))]);
    assert.deepEqual(ivs[3]!.peerReceivedBytes, [100, null, 0]);
    assert.equal(ivs[3]!.receivedBytes, null);
  });

  it('wall-clock over the group clock, per-peer sum and per-stream sum, each by its own rule', () => {
    // Peer 0: 2 streams, 1,000 B each over 1 s (from t=0 and t=1); peer 1: 3,000 B over 2 s, starting 0.5 s later.
    const a = makeResult({
      streams: [
        { bytes: 1000, seconds: 1, completions: 1 },
        { bytes: 1000, seconds: 1, completions: 1, firstT: 1 },
      ],
    });
    const b = makeResult({ streams: [{ bytes: 3000, seconds: 2, completions: 1 }] });
    const t = groupTotal([peer(0, a), peer(1, b, 0.5)], null);
    assert.equal(t.bytes, 5000);
    assert.equal(t.seconds, 2.5); // 0 .. 0.5 + 2
    assert.equal(t.bitsPerSecond, (5000 * 8) / 2.5);
    assert.equal(t.peerSumBitsPerSecond, (2000 * 8) / 2 + (3000 * 8) / 2);
    assert.equal(t.streamSumBitsPerSecond, 8000 + 8000 + 12000);
  });

  it('a partial peer adds its rate over the seconds measured, and the sums say what they added', () => {
    // Peer 2 was killed: no last byte known (seconds null), 1,500 B measured over 3 s; peer 3 never moved a byte.
    const killed = makeResult({ streams: [{ bytes: 1500, seconds: null, completions: 1 }], partialReason: 'gone' });
    const over: PartialRate = { seconds: 3, bitsPerSecond: (1500 * 8) / 3, span: 'start-to-last-sample' };
    killed.streams[0]!.partialRate = over;
    killed.total.partialRate = over;
    killed.directions.controllerToResponder!.partialRate = over;
    const silent = makeResult({ streams: [{ bytes: 0, seconds: null, completions: 0 }], partialReason: 'never answered' });
    const peers = [peer(0, steady(1000, 2)), peer(1, killed), peer(2, silent)];
    for (const t of [groupTotal(peers, null), groupTotal(peers, 'controller')]) {
      assert.equal(t.peerSumBitsPerSecond, 8000 + 4000);
      assert.deepEqual(t.peerSumOf, { added: 2, partial: 1, of: 3 });
      assert.equal(t.streamSumBitsPerSecond, 8000 + 4000);
      assert.deepEqual(t.streamSumOf, { added: 2, partial: 1, of: 3 });
    }
    assert.equal(sumOfText({ added: 2, partial: 1, of: 3 }, 'peer'), 'sum of 2 of 3 peers (1 unknown), 1 partial');
    assert.equal(sumOfText({ added: 3, partial: 1, of: 3 }, 'peer'), 'sum of 3 peers, 1 partial');
    assert.equal(sumOfText({ added: 1, partial: 0, of: 1 }, 'stream'), 'sum of 1 stream');
    // The killed peer's bytes have no last byte: the group's wall clock cannot cover them, so it is unknown, not 3,500 B over peer 1's 2 s.
    assert.equal(groupTotal(peers, null).bitsPerSecond, null);
    const g = buildGroupResult(meta, peers);
    // The summary's peer row and aggregate lines, the log's peer thread, and the group sentence.
    const summary = formatGroupSummary(g);
    assert.match(summary, /^2 h1 \(192\.0\.2\.2:5211\)\s+1,500\s+3\.000\s+4\.0 kbit\/s\s+unknown {2}PARTIAL \(partial: over the 3\.0 s measured\)$/m);
    assert.match(summary, /per-peer sum .*: +12\.0 kbit\/s \(sum of 2 of 3 peers \(1 unknown\), 1 partial\)$/m);
    assert.match(summary, /per-stream sum .*: +12\.0 kbit\/s \(sum of 2 of 3 streams \(1 unknown\), 1 partial\)$/m);
    assert.match(formatGroupConsoleLog(g), /^\s+2\s+3\.000\s+0\.500\s+0\.004 {2}\(partial: over the 3\.0 s measured\)$/m);
    // A killed peer stopped; it was not slower: only peers that ran to the end are compared.
    assert.equal(g.diagnosis.slowestPeer, null);
    assert.match(
      g.diagnosis.sentence,
      /^Only 1 of 3 peers ran to the end with a measured rate: no comparison between them\. Peer 2 \(192\.0\.2\.2:5211\) and peer 3 \(\S+\) are partial and not compared/,
    );
    assert.doesNotMatch(g.diagnosis.sentence, /slower one/);
    // Two complete peers beside a partial one: they are compared, and the partial one is named as left out.
    const mixed = groupDiagnosis([peer(0, steady(1000, 2)), peer(1, killed), peer(2, steady(500, 2))]);
    assert.equal(mixed.slowestPeer, 2);
    assert.equal(mixed.fastestPeer, 0);
    assert.match(mixed.sentence, /^peer 3 \(\S+\) was the slower one: .* for peer 1 .*\. Peer 2 \(192\.0\.2\.2:5211\) is partial and not compared/);
  });

  it('the document: partial names the peer, errors carry the peer index, skew is latest minus earliest start', () => {
    const g = buildGroupResult(meta, [peer(0, steady(100, 2), 0), peer(1, steady(50, 1, 0, 'no end-of-run report from the responder'), 0.003)]);
    assert.equal(g.schema, 'longhaul.group/1');
    assert.equal(g.partial, true);
    assert.match(g.partialReason!, /^peer 2 \(192\.0\.2\.2:5211\): no end-of-run report/);
    assert.deepEqual(
      g.errors.map((e) => e.peer),
      [1],
    );
    assert.equal(g.startSkewSeconds, 0.003);
    assert.equal(buildGroupResult(meta, [peer(0, steady(1, 1), null), peer(1, steady(1, 1), 0)]).startSkewSeconds, null);
  });

  it('diagnosis: names the slower peer; the shared side only with baselines, both ways', () => {
    const peers = [peer(0, steady(1_000_000, 2)), peer(1, steady(500_000, 2))];
    const none = groupDiagnosis(peers);
    assert.equal(none.slowestPeer, 1);
    assert.match(none.sentence, /^peer 2 \(192\.0\.2\.2:5211\) was the slower one: 4\.00 Mbit\/s against 8\.00 Mbit\/s/);
    assert.equal(none.sharedSideSuspected, null);
    assert.match(none.sentence, /unknown/);
    const both = groupDiagnosis(peers, [20e6, 10e6]); // 40 % and 40 % of what each does alone
    assert.equal(both.sharedSideSuspected, true);
    assert.match(both.sentence, /this PC's shared side .* is suspected/);
    const one = groupDiagnosis(peers, [8.5e6, 10e6]); // peer 1 keeps 94 %
    assert.equal(one.sharedSideSuspected, false);
    assert.equal(groupDiagnosis(peers, [20e6, null]).sharedSideSuspected, null);
  });
});
