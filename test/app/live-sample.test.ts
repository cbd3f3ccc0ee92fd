/** Engine samples → the Run screen's live samples: an estimated retransmit count keeps its label and its bytes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toLiveSample } from '../../electron/app/live-sample.js';
import type { Side, TcpSample } from '../../electron/contract/result.js';

/** A Windows sender's SIO_TCP_INFO reading as the engine records it: no segment count, BytesRetrans ÷ MSS. */
const windowsReading = (over: Partial<TcpSample> = {}): TcpSample => ({
  index: 3,
  t: 1.5,
  rttUs: 41_000,
  rttVarUs: 2_000,
  sndCwndSegments: 40,
  sndCwndBytes: 57_920,
  totalRetransSegments: 12,
  retransSource: 'estimated',
  bytesRetrans: 17_376,
  sndWndBytes: 65_535,
  rcvSpaceBytes: null,
  deliveryRateBitsPerSecond: null,
  busyUs: null,
  rwndLimitedUs: 10,
  sndbufLimitedUs: null,
  unackedSegments: null,
  notSentBytes: null,
  ...over,
});

const senders = new Map<number, Side>([[0, 'controller']]);
const sample = (t: TcpSample) => ({
  index: 3,
  t: 1.5,
  final: false,
  streams: [[0, 1000, 2]] as [number, number, number][],
  tcp: [[0, t]] as [number, TcpSample][],
});

describe('live sample', () => {
  it("carries a Windows sender's estimated count with its label and bytes", () => {
    const s = toLiveSample('r', 'controller', sample(windowsReading()), senders);
    assert.deepEqual(s.tcp, [
      { id: 0, rttUs: 41_000, sndCwndBytes: 57_920, sndWndBytes: 65_535, totalRetransSegments: 12, retransSource: 'estimated', bytesRetrans: 17_376 },
    ]);
  });

  it('a counted figure goes as it was; an unknown one stays null with no label', () => {
    const counted = toLiveSample('r', 'controller', sample(windowsReading({ retransSource: 'counted', bytesRetrans: 99 })), senders);
    assert.equal(counted.tcp?.[0]?.retransSource, undefined);
    assert.equal(counted.tcp?.[0]?.totalRetransSegments, 12);
    const unknown = toLiveSample('r', 'controller', sample(windowsReading({ totalRetransSegments: null, bytesRetrans: null })), senders);
    assert.equal(unknown.tcp?.[0]?.totalRetransSegments, null);
    assert.equal(unknown.tcp?.[0]?.retransSource, undefined, 'no estimate without a figure');
  });
});
