/** The Run screen's TCP panel: median RTT and summed windows per tick; unknown stays unknown. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveSample } from '../../../electron/contract/api.js';
import { median, TcpSeries } from '../../../renderer/src/lib/tcp-series.js';

const sample = (t: number, tcp?: LiveSample['tcp']): LiveSample => ({
  runId: 'r',
  side: 'controller',
  index: 1,
  t,
  final: false,
  streams: [],
  ...(tcp ? { tcp } : {}),
});

describe('tcp series', () => {
  it('takes the median RTT in ms and sums cwnd and peer windows over the sending streams', () => {
    const s = new TcpSeries();
    s.add(
      sample(1, [
        { id: 0, rttUs: 100_000, sndCwndBytes: 65_536, sndWndBytes: 131_072, totalRetransSegments: 1 },
        { id: 1, rttUs: 120_000, sndCwndBytes: 32_768, sndWndBytes: null, totalRetransSegments: 0 },
        { id: 2, rttUs: null, sndCwndBytes: null, sndWndBytes: null, totalRetransSegments: null },
      ]),
    );
    assert.equal(s.rttNowMs, 110);
    assert.equal(s.cwndNowBytes, 98_304);
    assert.equal(s.peerWindowNowBytes, 131_072);
    assert.equal(s.retransSegments, 1);
    assert.deepEqual(s.rttMs, [{ x: 1, y: 110 }]);
    assert.equal(s.streams, 3);
  });

  it("bidir: both sides send, so the figures cover both sides' latest readings, one point per tick", () => {
    const s = new TcpSeries();
    const at = (side: 'controller' | 'responder', index: number, t: number, id: number, cwnd: number): LiveSample => ({
      ...sample(t, [{ id, rttUs: side === 'controller' ? 200 : 400, sndCwndBytes: cwnd, sndWndBytes: null, totalRetransSegments: 1 }]),
      side,
      index,
    });
    for (let i = 1; i <= 3; i++) {
      s.add(at('controller', i, i, 0, 1_000_000));
      s.add(at('responder', i, i + 0.01, 1, 2_000_000));
    }
    assert.equal(s.cwndNowBytes, 3_000_000);
    assert.equal(s.retransSegments, 2);
    assert.equal(s.streams, 2);
    assert.ok(Math.abs(s.rttNowMs! - 0.3) < 1e-9, `median of 0.2 and 0.4 ms: ${s.rttNowMs}`);
    // The first tick's point was the controller's alone until the responder's half came.
    assert.deepEqual(s.cwndBytes, [
      { x: 1.01, y: 3_000_000 },
      { x: 2.01, y: 3_000_000 },
      { x: 3.01, y: 3_000_000 },
    ]);
  });

  it('the path idle (lowest min_rtt) and the queueing now (median of smoothed less minimum); unknown without min_rtt', () => {
    const s = new TcpSeries();
    s.add(
      sample(1, [
        { id: 0, rttUs: 220_000, minRttUs: 20_000, sndCwndBytes: 1, sndWndBytes: 1, totalRetransSegments: 0 },
        { id: 1, rttUs: 180_000, minRttUs: 21_000, sndCwndBytes: 1, sndWndBytes: 1, totalRetransSegments: 0 },
        { id: 2, rttUs: 180_000, minRttUs: 30_000, sndCwndBytes: 1, sndWndBytes: 1, totalRetransSegments: 0 },
      ]),
    );
    assert.equal(s.idleRttMs, 20);
    assert.equal(s.queueingNowMs, 159);
    s.add(sample(2, [{ id: 0, rttUs: 220_000, sndCwndBytes: 1, sndWndBytes: 1, totalRetransSegments: 0 }]));
    assert.equal(s.idleRttMs, null);
    assert.equal(s.queueingNowMs, null);
  });

  it('ignores samples without readings, and reports unknown rather than zero', () => {
    const s = new TcpSeries();
    s.add(sample(1));
    s.add(sample(2, [{ id: 0, rttUs: null, sndCwndBytes: null, sndWndBytes: null, totalRetransSegments: null }]));
    assert.equal(s.readings, 1);
    assert.equal(s.rttNowMs, null);
    assert.equal(s.cwndNowBytes, null);
    assert.deepEqual(s.rttMs, []);
    assert.equal(median([]), null);
    assert.equal(median([3, 1, 2]), 2);
  });

  it('Windows senders: the sum of estimated counts is an estimate, with the bytes behind it; a mix with counted streams has no byte figure', () => {
    const s = new TcpSeries();
    const win = (id: number, n: number | null, bytes: number | null) =>
      ({ id, rttUs: 40_000, sndCwndBytes: 57_920, sndWndBytes: 65_535, totalRetransSegments: n, retransSource: 'estimated', bytesRetrans: bytes }) as const;
    s.add(sample(1, [win(0, 12, 17_376), win(1, 3, 4_344)]));
    assert.equal(s.retransSegments, 15);
    assert.equal(s.retransEstimated, true);
    assert.equal(s.retransBytes, 21_720);
    s.add(sample(2, [win(0, 12, 17_376), { id: 1, rttUs: 40_000, sndCwndBytes: 1, sndWndBytes: 1, totalRetransSegments: 2 }]));
    assert.equal(s.retransSegments, 14);
    assert.equal(s.retransEstimated, true, 'part of the sum is an estimate');
    assert.equal(s.retransBytes, null);
    // A Windows reading with no MSS has no count: unknown, not an estimated 0.
    s.add(sample(3, [{ id: 0, rttUs: 40_000, sndCwndBytes: 1, sndWndBytes: 1, totalRetransSegments: null }]));
    assert.equal(s.retransSegments, null);
    assert.equal(s.retransEstimated, false);
  });

  it('stays bounded', () => {
    const s = new TcpSeries(50);
    for (let i = 1; i <= 500; i++) s.add(sample(i / 10, [{ id: 0, rttUs: 1000 * i, sndCwndBytes: i, sndWndBytes: i, totalRetransSegments: 0 }]));
    assert.ok(s.rttMs.length <= 50 && s.cwndBytes.length <= 50);
    assert.equal(s.rttMs.at(-1)!.x, 50);
  });

  it("the control channel's ping: the latest figures and a point per tick, also where no TCP reading came", () => {
    const s = new TcpSeries();
    s.add({ ...sample(0.5), control: { idleMs: 40.2, nowMs: null } });
    assert.deepEqual([s.controlIdleMs, s.controlNowMs, s.controlMs.length], [40.2, null, 0]);
    s.add({ ...sample(1), index: 2, control: { idleMs: 40.2, nowMs: 95.5 } });
    assert.deepEqual([s.controlIdleMs, s.controlNowMs], [40.2, 95.5]);
    assert.deepEqual(s.controlMs, [{ x: 1, y: 95.5 }]);
    assert.equal(s.readings, 0, 'no TCP reading: the kernel figures stay unknown');
  });
});
