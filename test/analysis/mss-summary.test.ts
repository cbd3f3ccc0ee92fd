/**
 * The run's MSS from its stream ends' socket reports: applied only when one was asked for and no end
 * that reported refused it; the send MSS is the range over the sending ends only (a receiver's send
 * MSS shapes nothing), the advertised MSS and path MTU over every end; a figure an OS did not give
 * (null, absent or 0) is left out of a range, and a range with nothing in it is null, never a guess.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeMss, type MssEnd } from '../../electron/analysis/mss-summary.js';
import type { SocketReport } from '../../electron/contract/result.js';

function end(side: MssEnd['side'], sends: boolean, over: Partial<SocketReport>): MssEnd {
  const report: SocketReport = {
    requestedBytes: null,
    appliedBeforeHandshake: true,
    sndBufBytes: null,
    rcvBufBytes: null,
    sndBufLocked: null,
    rcvBufLocked: null,
    sndMssBytes: null,
    rcvMssBytes: null,
    pmtuBytes: null,
    ...over,
  } as SocketReport;
  return { side, sends, report };
}

describe('MSS summary', () => {
  it('send MSS over the sending ends only; advertised MSS and path MTU over all; applied when every end took it', () => {
    const m = summarizeMss(1_200, [
      end('controller', true, { sndMssBytes: 1_188, advMssBytes: 1_200, pmtuBytes: 1_500, mssApplied: true }),
      end('controller', true, { sndMssBytes: 1_176, advMssBytes: 1_200, pmtuBytes: 1_500, mssApplied: true }),
      end('responder', false, { sndMssBytes: 536, advMssBytes: 1_188, pmtuBytes: 9_000, mssApplied: true }),
    ]);
    assert.deepEqual(m.sendMssBytes, { min: 1_176, max: 1_188 });
    assert.deepEqual(m.advertisedMssBytes, { min: 1_188, max: 1_200 });
    assert.deepEqual(m.pmtuBytes, { min: 1_500, max: 9_000 });
    assert.deepEqual([m.applied, m.refusedEnds, m.reportedEnds, m.refusedBy], [true, 0, 3, []]);
  });

  it('one refusing end makes it not applied, and names its side once', () => {
    const m = summarizeMss(1_200, [
      end('controller', true, { mssApplied: true }),
      end('responder', false, { mssApplied: false }),
      end('responder', false, { mssApplied: false }),
    ]);
    assert.deepEqual([m.applied, m.refusedEnds, m.refusedBy], [false, 2, ['responder']]);
  });

  it('nothing asked or nothing reported is not applied; figures an OS did not give make no range', () => {
    assert.equal(summarizeMss(null, [end('controller', true, {})]).applied, false);
    assert.equal(summarizeMss(1_200, []).applied, false);
    const m = summarizeMss(1_200, [end('controller', true, { sndMssBytes: 0, pmtuBytes: null })]);
    assert.deepEqual([m.sendMssBytes, m.advertisedMssBytes, m.pmtuBytes], [null, null, null]);
  });
});
