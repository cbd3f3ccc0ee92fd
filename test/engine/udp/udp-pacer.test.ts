/** The UDP sender's schedule on a hand-driven clock: the asked average, and a lag written off, not burst. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATCH_UP_SECONDS, UdpPacer } from '../../../electron/engine/data-plane/udp/udp-pacer.js';

const MS = 1_000_000n;

describe('UDP pacer', () => {
  it('1 ms turns over a second: the asked rate to the datagram, nothing written off', () => {
    // 10 Mbit/s of 1,250-byte datagrams: 1,000 per second.
    const p = new UdpPacer(1_250_000, 1250, 0n);
    let sent = 0;
    for (let t = 1n; t <= 1000n; t++) {
      const n = p.due(t * MS);
      p.sent(n);
      sent += n;
    }
    assert.equal(sent, 1000);
    assert.equal(p.shortBytes, 0);
  });

  it('a 200 ms stall: it makes up CATCH_UP_SECONDS at once and counts the rest as short', () => {
    const p = new UdpPacer(1_250_000, 1250, 0n);
    const n = p.due(200n * MS);
    assert.equal(n, (1_250_000 * CATCH_UP_SECONDS) / 1250);
    assert.ok(Math.abs(p.shortBytes - 1_250_000 * (0.2 - CATCH_UP_SECONDS)) < 1, `${p.shortBytes}`);
  });

  it('waits until the next datagram is due', () => {
    const p = new UdpPacer(125_000, 1250, 0n); // 1 Mbit/s: one datagram per 10 ms
    assert.equal(p.due(0n), 0);
    assert.equal(p.waitMs(), 10);
  });
});
