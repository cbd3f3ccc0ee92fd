/** This side's stream ends as iperf3 results: a Windows sender's estimated retransmit count stays labelled. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TcpSample } from '../../electron/contract/result.js';
import { localResults } from '../../electron/engine/iperf3/iperf3-ends.js';
import type { PlannedStream } from '../../electron/contract/stream-plan.js';
import type { StreamEnd } from '../../electron/protocol/messages.js';

const reading = (over: Partial<TcpSample>): TcpSample =>
  ({
    index: 1,
    t: 1,
    rttUs: null,
    rttVarUs: null,
    sndCwndSegments: null,
    sndCwndBytes: null,
    totalRetransSegments: null,
    sndWndBytes: null,
    ...over,
  }) as TcpSample;
const end = (id: number, role: 'send' | 'receive'): StreamEnd => ({ id, role, bytes: 100, completions: 1, firstT: 0, lastT: 1, error: null });

describe('iperf3 ends', () => {
  it('marks an estimated count (Windows: BytesRetrans ÷ MSS), keeps a counted one plain and an unknown one null', () => {
    const plan: PlannedStream[] = [0, 1, 2, 3].map((id) => ({ id, sender: 'responder', bytes: null }));
    const ends = [end(0, 'send'), end(1, 'send'), end(2, 'send'), end(3, 'receive')];
    const tcp: [number, TcpSample][] = [
      [0, reading({ totalRetransSegments: 12, retransSource: 'estimated', bytesRetrans: 17_376 })],
      [1, reading({ totalRetransSegments: 3, retransSource: 'counted' })],
      [2, reading({ totalRetransSegments: null, bytesRetrans: null })],
      [3, reading({ totalRetransSegments: 9, retransSource: 'estimated' })],
    ];
    const r = localResults(plan, ends, tcp);
    assert.deepEqual(
      r.map((x) => [x.retransmits, x.retransEstimated ?? false]),
      [
        [12, true],
        [3, false],
        [null, false],
        [null, false],
      ],
    );
  });
});
