/** The UDP sender's schedule on a hand-driven clock: the asked average, and a lag written off, not burst. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CATCH_UP_SECONDS, UdpPacer } from '../../../../electron/engine/data-plane/udp/udp-pacer.js';

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

  it('a 200 ms stall: it makes up the datagram due and CATCH_UP_SECONDS at once and counts the rest as short', () => {
    const p = new UdpPacer(1_250_000, 1250, 0n);
    const n = p.due(200n * MS);
    assert.equal(n, 1 + (1_250_000 * CATCH_UP_SECONDS) / 1250);
    assert.ok(Math.abs(p.shortBytes - (1_250_000 * (0.2 - CATCH_UP_SECONDS) - 1250)) < 1, `${p.shortBytes}`);
  });

  it('a slow voice stream whose timers fire 1-3 ms late: every datagram goes, nothing written off', () => {
    // 64 kbit/s of 172-byte datagrams (G.711 with RTP): one per 21.5 ms, more than CATCH_UP_SECONDS apart.
    const p = new UdpPacer(8000, 172, 0n);
    let t = 0n;
    let sent = 0;
    for (let turn = 0; turn < 1000 && t < 10_000n * MS; turn++) {
      const n = p.due(t);
      p.sent(n);
      sent += n;
      t += BigInt(p.waitMs() + 1 + (turn % 3)) * MS; // the timer as a busy event loop fires it
    }
    const asked = Math.floor((8000 * Number(t / MS)) / 1000 / 172);
    assert.ok(sent >= asked - 1, `sent ${sent} of ${asked}`);
    assert.equal(p.shortBytes, 0);
  });

  it('waits until the next datagram is due', () => {
    const p = new UdpPacer(125_000, 1250, 0n); // 1 Mbit/s: one datagram per 10 ms
    assert.equal(p.due(0n), 0);
    assert.equal(p.waitMs(), 10);
  });

  it('at the deadline, the whole datagrams the schedule asked for and this PC did not send are short', () => {
    const p = new UdpPacer(1_250_000, 1250, 0n);
    for (let t = 1n; t <= 990n; t++) p.sent(p.due(t * MS)); // everything due by 990 ms went out, on time
    p.finish(1000n * MS); // the next turn came after the deadline: 10 ms of the schedule never sent
    assert.equal(p.shortBytes, 12_500);
  });
});
