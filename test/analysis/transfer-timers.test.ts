/**
 * The kernel's cumulative timers over each stream's active time: idle time before the start (Windows'
 * RFC 4898 timers count the whole connection, Snd time included) must not dilute any share.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndView, TcpSample } from '../../electron/contract/result.js';
import { streamTimers } from '../../electron/analysis/transfer-timers.js';
import { tcpSample } from '../helpers/result-fixtures.js';

function view(firstT: number, lastT: number, tcp: TcpSample[]): EndView {
  return { side: 'controller', bytes: 1, completions: 1, firstT, lastT, seconds: lastT - firstT, error: null, tcp };
}

describe('streamTimers', () => {
  it('30 s idle before the data (Windows-shaped: Snd time counts it): differences from the reading at the start', () => {
    const tcp = [
      { ...tcpSample(0, { busyUs: 0, senderLimitedUs: 30e6, rwndLimitedUs: 0, unackedSegments: 0 }), t: 30 },
      { ...tcpSample(1, { busyUs: 1e6, senderLimitedUs: 30e6, rwndLimitedUs: 0.9e6, unackedSegments: 5 }), t: 31 },
      { ...tcpSample(2, { busyUs: 2e6, senderLimitedUs: 30e6, rwndLimitedUs: 1.8e6, unackedSegments: 5 }), t: 32 },
    ];
    const t = streamTimers(view(30, 32, tcp));
    assert.equal(t.senderLimitedUs, 0);
    assert.equal(t.busyUs, 2e6);
    assert.equal(t.rwndLimitedUs, 1.8e6);
    assert.equal(t.coveredSeconds, 2);
  });

  it('no reading before the start: from the first reading inside the transfer, over the time it covers', () => {
    const tcp = [1, 2, 3].map((i) => ({ ...tcpSample(i, { busyUs: i * 1e6, rwndLimitedUs: i * 0.5e6, unackedSegments: 5 }), t: i }));
    const t = streamTimers(view(0, 3, tcp));
    assert.equal(t.busyUs, 2e6);
    assert.equal(t.rwndLimitedUs, 1e6);
    assert.equal(t.coveredSeconds, 2);
  });

  it('a timer the OS does not report stays null, never 0', () => {
    const tcp = [1, 2].map((i) => ({ ...tcpSample(i, { busyUs: i * 1e6, unackedSegments: 5 }), t: i, cwndLimitedUs: null }));
    assert.equal(streamTimers(view(0, 2, tcp)).cwndLimitedUs, null);
  });
});
