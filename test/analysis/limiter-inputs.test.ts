/**
 * The figures a verdict is computed from, read off a result's sender-side TCP_INFO. The RTT is each
 * stream's median over the readings taken with data in flight (an idle socket's RTT at the start or
 * after the drain says nothing about the transfer), then the median over streams; the minimum RTT is
 * the lowest any stream saw; windows are each stream's median, summed; retransmits each stream's last
 * cumulative count, summed; the MSS and congestion control only when every stream agrees. A stream
 * whose sender did not report makes the TCP figures missing, with that as the reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limiterInputs, transferRttSeconds } from '../../electron/analysis/limiter-inputs.js';
import type { StreamResult, TcpSample } from '../../electron/contract/result.js';
import { makeResult, tcpSample } from '../helpers/result-fixtures.js';

/** A reading with data in flight (unacked > 0) or idle (0). */
const r = (i: number, rttUs: number, unacked: number, more: Partial<TcpSample> = {}): TcpSample => tcpSample(i, { rttUs, unackedSegments: unacked, ...more });

function streams(...series: TcpSample[][]): StreamResult[] {
  const res = makeResult({ streams: series.map(() => ({ bytes: 10_000_000, seconds: 2, completions: 100 })) });
  return res.streams.map((s, i) => ({ ...s, send: s.send && { ...s.send, tcp: series[i] ?? [] } }));
}

describe('limiter inputs', () => {
  it("the RTT: each stream's median over readings with data in flight, then the median over streams", () => {
    // Stream 0: idle 200 µs readings at both ends are left out; in flight 10, 30, 20 ms → 20 ms.
    const a = [r(0, 200, 0), r(1, 10_000, 40), r(2, 30_000, 40), r(3, 20_000, 40), r(4, 200, 0)];
    // Stream 1: in flight 40 and 60 ms → 50 ms (even count: the mean of the middle two).
    const b = [r(1, 40_000, 10), r(2, 60_000, 10)];
    // Stream 2: no reading in flight: all its readings count → 5 ms.
    const c = [r(1, 4_000, 0), r(2, 5_000, 0), r(3, 6_000, 0)];
    assert.equal(transferRttSeconds(streams(a)), 0.02);
    assert.equal(transferRttSeconds(streams(a, b)), 0.035);
    assert.equal(transferRttSeconds(streams(a, b, c)), 0.02);
    assert.equal(transferRttSeconds(streams([])), null);
  });

  it('windows and cwnds: medians per stream, summed; retransmits: the last count of each, summed; min RTT: the lowest', () => {
    const a = [
      r(1, 10_000, 5, { sndWndBytes: 300, sndCwndBytes: 30, totalRetransSegments: 1, minRttUs: 9_000 }),
      r(2, 10_000, 5, { sndWndBytes: 200, sndCwndBytes: 20, totalRetransSegments: 4, minRttUs: 8_000 }),
      r(3, 10_000, 5, { sndWndBytes: 100, sndCwndBytes: 10, totalRetransSegments: 7, minRttUs: 8_000 }),
    ];
    const b = [r(1, 12_000, 5, { sndWndBytes: 1_000, sndCwndBytes: 50, totalRetransSegments: 2, minRttUs: 7_000 })];
    const inputs = limiterInputs(streams(a, b), 40e6, 2);
    assert.equal(inputs.windowBytes, 200 + 1_000, "stream 0's median, not its last reading");
    assert.equal(inputs.cwndBytes, 20 + 50);
    assert.equal(inputs.retransSegments, 7 + 2);
    assert.equal(inputs.minRttSeconds, 0.007);
    assert.equal(inputs.measuredBitsPerSecond, 40e6);
    assert.equal(inputs.missingReason, null);
  });

  it('the MSS and congestion control only when every stream agrees', () => {
    const withSocket = (s: StreamResult, mss: number, cc: string): StreamResult => ({
      ...s,
      send: s.send && { ...s.send, socket: { sndMssBytes: mss, congestionControl: cc } as NonNullable<StreamResult['send']>['socket'] },
    });
    const [x, y] = streams([r(1, 1_000, 1)], [r(1, 1_000, 1)]);
    assert.ok(x && y);
    const agree = limiterInputs([withSocket(x, 1448, 'cubic'), withSocket(y, 1448, 'cubic')], null, 1);
    assert.deepEqual([agree.mssBytes, agree.congestionControl], [1448, 'cubic']);
    const mixed = limiterInputs([withSocket(x, 1448, 'cubic'), withSocket(y, 1460, 'bbr')], null, 1);
    assert.deepEqual([mixed.mssBytes, mixed.congestionControl], [null, null]);
  });

  it('a sender that did not report: the TCP figures unknown, and why', () => {
    const [s] = streams([r(1, 1_000, 1)]);
    assert.ok(s);
    const inputs = limiterInputs([{ ...s, send: null }], 1e6, 1);
    assert.deepEqual([inputs.rttSeconds, inputs.windowBytes, inputs.retransSegments], [null, null, null]);
    assert.equal(inputs.missingReason, 'the sender did not report');
  });
});
