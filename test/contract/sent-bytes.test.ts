/**
 * Bytes sent as the reports show them: a sender's end report as it is; a vanished sender's last sample (no times,
 * LH_ERR_PEER_GONE, as run-recorder builds it) as a lower bound never below what arrived, in both directions of
 * the comparison; sums carry the bound; unknown stays unknown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamResult } from '../../electron/contract/result.js';
import { sentText, shownSent, sumShownSent } from '../../electron/contract/sent-bytes.js';
import { groupDigits } from '../../electron/contract/units.js';

type Send = NonNullable<StreamResult['send']>;

function ended(bytes: number): Send {
  return { side: 'responder', bytes, completions: 1, firstT: 0, lastT: 1, seconds: 1, error: null };
}

function lastSample(bytes: number): Send {
  return {
    side: 'responder',
    bytes,
    completions: 1,
    firstT: null,
    lastT: null,
    seconds: null,
    error: { code: 'LH_ERR_PEER_GONE', message: 'no end-of-run report from the responder vm (127.0.0.1); counts are from its last sample' },
  };
}

describe('bytes sent as shown', () => {
  it("an end report is shown as it is, even below what arrived (that is the claims check's business, not the table's)", () => {
    assert.deepEqual(shownSent({ bytes: 900, send: ended(1000) }), { bytes: 1000, atLeast: false });
    assert.deepEqual(shownSent({ bytes: 1000, send: ended(900) }), { bytes: 900, atLeast: false });
  });

  it("a vanished sender's last sample is a lower bound, never below what arrived", () => {
    // The 3x-group-6-partial run: the killed responder's last sample said 1,171,190,517; 1,576,137,514 arrived.
    assert.deepEqual(shownSent({ bytes: 1_576_137_514, send: lastSample(1_171_190_517) }), { bytes: 1_576_137_514, atLeast: true });
    assert.equal(sentText(shownSent({ bytes: 1_576_137_514, send: lastSample(1_171_190_517) }), groupDigits), '≥ 1,576,137,514');
    // Its sample ahead of the receiver (bytes still in flight when it died): the sample is the bound.
    assert.deepEqual(shownSent({ bytes: 500, send: lastSample(800) }), { bytes: 800, atLeast: true });
  });

  it('a stream error with an end report (times known) is not a last sample', () => {
    const errored: Send = { ...ended(700), error: { code: 'LH_ERR_PEER_GONE', message: 'send: Connection reset by peer' } };
    assert.deepEqual(shownSent({ bytes: 900, send: errored }), { bytes: 700, atLeast: false });
  });

  it('unknown stays unknown; sums carry the bound and the unknown', () => {
    assert.equal(shownSent({ bytes: 10, send: null }), null);
    assert.equal(sentText(null, groupDigits), 'unknown');
    assert.deepEqual(
      sumShownSent([
        { bytes: 10, atLeast: false },
        { bytes: 5, atLeast: true },
      ]),
      { bytes: 15, atLeast: true },
    );
    assert.deepEqual(
      sumShownSent([
        { bytes: 10, atLeast: false },
        { bytes: 5, atLeast: false },
      ]),
      { bytes: 15, atLeast: false },
    );
    assert.equal(sumShownSent([{ bytes: 10, atLeast: false }, null]), null);
    assert.equal(sentText({ bytes: 1234, atLeast: false }, groupDigits), '1,234');
  });
});
