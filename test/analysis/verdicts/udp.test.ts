/**
 * The UDP verdict's order and thresholds (analysis/verdicts/udp.ts) on counts built around them; the
 * physics (a path whose rate is known, the asked rate above and below it) is checked on the kernel
 * WAN harness in test/wan/wan-udp.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOSS_SHARE, SHORT_SHARE, udpDiagnosis } from '../../../electron/analysis/verdicts/udp.js';
import type { DiagnosisFinding, StreamResult, TotalResult } from '../../../electron/contract/result.js';
import { answerLines } from '../../../electron/contract/answer-text.js';

const BASE = {
  direction: 'controllerToResponder',
  verdict: 'unknown',
  case: 'unknown/rtt-unknown',
  figures: {},
  sentence: '',
  numbers: {
    measuredBitsPerSecond: 1e6,
    rttSeconds: null,
    windowBytes: null,
    windowBitsPerSecond: null,
    cwndBytes: null,
    cwndBitsPerSecond: null,
    retransSegments: null,
    rwndLimitedShare: null,
  },
} as unknown as DiagnosisFinding;

/**
 * One stream that sent `sent` bytes with `short` written off, of which `lost` of 1,000 datagrams never arrived;
 * `drops` of them, by the receiving PC's OS count, at its own socket (null: that OS does not say).
 */
function run(sent: number, short: number, lost: number, drops: number | null = null): { total: TotalResult; streams: StreamResult[] } {
  const counts = { datagrams: 1000 - lost, bytes: (1000 - lost) * 1000, lost, outOfOrder: 0, duplicates: 0, jitterMs: 0.05 };
  const stream = {
    id: 0,
    sender: 'controller',
    bytes: counts.bytes,
    seconds: 8,
    completions: counts.datagrams,
    bitsPerSecond: (counts.bytes * 8) / 8,
    send: { side: 'controller', bytes: sent, completions: 1000, firstT: 0, lastT: 8, seconds: 8, error: null },
    receive: null,
    udp: { ...counts, lastSeq: 1000, sentDatagrams: 1000, shortBytes: short, sendErrors: 0, receiverDrops: drops },
  } as StreamResult;
  const total = {
    bytes: counts.bytes,
    sentBytes: sent,
    seconds: 8,
    bitsPerSecond: stream.bitsPerSecond,
    streamSumBitsPerSecond: null,
    completions: 0,
    udp: { ...counts, receiverDrops: drops },
  };
  return { total, streams: [stream] };
}

describe('the UDP verdict', () => {
  it('at the thresholds: carried up to LOSS_SHARE lost, dropped above it; a sender short by more than SHORT_SHARE comes first', () => {
    const atLoss = run(1e6, 0, Math.round(LOSS_SHARE * 1000));
    assert.equal(udpDiagnosis(atLoss.total, atLoss.streams, 1e6, 'controller', BASE).case, 'application-limited/udp-carried');
    const aboveLoss = run(1e6, 0, Math.round(LOSS_SHARE * 1000) + 1);
    const dropped = udpDiagnosis(aboveLoss.total, aboveLoss.streams, 1e6, 'controller', BASE);
    assert.equal(dropped.case, 'loss-limited/udp-dropped');
    assert.equal(dropped.figures.lossRatio?.value, 0.011);
    const atShort = run(1e6 * (1 - SHORT_SHARE), 1e6 * SHORT_SHARE, 0);
    assert.equal(udpDiagnosis(atShort.total, atShort.streams, 1e6, 'controller', BASE).case, 'application-limited/udp-carried');
    const shortAndLossy = run(1e6 * 0.9, 1e6 * 0.1, 500);
    const short = udpDiagnosis(shortAndLossy.total, shortAndLossy.streams, 1e6, 'controller', BASE);
    assert.equal(short.case, 'cpu-limited/udp-sender-short', 'the PC that could not send is the first limit, whatever was then lost');
    assert.equal(short.side, 'controller');
  });

  it("the answer names the asked rate, the loss and the jitter; where the receiving PC's OS does not count its drops, the detail says so", () => {
    const lossy = run(1e6, 0, 120);
    const d = udpDiagnosis(lossy.total, lossy.streams, 1e6, 'controller', BASE);
    assert.match(d.sentence, /the path, or the receiving PC, dropped them \(the receiving PC's OS does not say which\)/);
    const lines = answerLines({ diagnosis: [d], directions: { controllerToResponder: lossy.total }, total: lossy.total, advice: [] } as never, 'terminal');
    assert.equal(
      lines[0],
      'Result: 880.0 kbit/s · loss-limited: 12 % of 1,000 datagrams lost, jitter 0.050 ms at the asked 1.0 Mbit/s (on the path or at the receiver).',
    );
  });

  it("the receiving PC's own drops: half or more of the lost make it the receiver's loss (the mirror: the responder sending)", () => {
    for (const sender of ['controller', 'responder'] as const) {
      const full = run(1e6, 0, 120, 60);
      const d = udpDiagnosis(full.total, full.streams, 1e6, sender, BASE);
      assert.equal(d.case, 'receiver-limited/udp-socket-full');
      assert.equal(d.side, sender === 'controller' ? 'responder' : 'controller', 'the side that received');
      assert.equal(d.figures.receiverDrops?.value, 60);
      assert.match(d.sentence, /dropped 60 of them itself, its socket's receive buffer full/);
      const fewer = run(1e6, 0, 120, 59);
      assert.equal(udpDiagnosis(fewer.total, fewer.streams, 1e6, sender, BASE).case, 'loss-limited/udp-dropped', 'fewer than half: the path dropped most');
    }
  });

  it("drops the receiving PC counted none of: the path's loss, and the answer says so", () => {
    const path = run(1e6, 0, 120, 0);
    const d = udpDiagnosis(path.total, path.streams, 1e6, 'controller', BASE);
    assert.equal(d.case, 'loss-limited/udp-dropped');
    assert.match(d.sentence, /the path dropped them: the receiving PC's OS dropped none at its sockets/);
    const lines = answerLines({ diagnosis: [d], directions: { controllerToResponder: path.total }, total: path.total, advice: [] } as never, 'terminal');
    assert.match(lines[0] ?? '', /\(on the path: the receiving PC dropped none\)\.$/);
  });

  it('below the loss threshold the drops change nothing: the asked rate arrived', () => {
    const few = run(1e6, 0, 5, 5);
    assert.equal(udpDiagnosis(few.total, few.streams, 1e6, 'controller', BASE).case, 'application-limited/udp-carried');
  });

  it("through the link emulator: the relay's own drops, half or more of the lost, make the emulator the limit (both directions); the link's drops stay the path's", () => {
    for (const sender of ['controller', 'responder'] as const) {
      const lossy = run(1e6, 0, 120, 0);
      const relay = (own: number | null) => ({
        datagrams: 1000,
        delivered: 880,
        lostOnLink: 0,
        queueDropped: 120 - (own ?? 0),
        emulatorDropped: own,
        sendErrors: 0,
      });
      const d = udpDiagnosis(lossy.total, lossy.streams, 1e6, sender, BASE, relay(60));
      assert.equal(d.case, 'emulator-limited/fell-behind');
      assert.deepEqual(d.facts?.emulator?.signs, [{ kind: 'dropped', datagrams: 60, share: 0.5 }]);
      assert.match(d.sentence, /The link emulator on this PC, not the emulated link, was the limit: it lost 60 datagrams itself/);
      assert.equal(
        udpDiagnosis(lossy.total, lossy.streams, 1e6, sender, BASE, relay(59)).case,
        'loss-limited/udp-dropped',
        'fewer than half: the link dropped most',
      );
      assert.equal(udpDiagnosis(lossy.total, lossy.streams, 1e6, sender, BASE, relay(null)).case, 'loss-limited/udp-dropped', 'unknown is not a drop');
    }
  });
});
