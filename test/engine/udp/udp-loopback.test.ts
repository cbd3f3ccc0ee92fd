/**
 * A UDP sender and receiver on loopback, real sockets on port 0: the receiver counts every
 * datagram the sender numbered (arrived + lost = the last number), the sender keeps -b to ±2 %
 * or says by how much this PC fell short, and a stranger's datagrams on the port are not counted.
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { describe, it } from 'node:test';
import { UdpReceiver } from '../../../electron/engine/data-plane/udp/udp-receiver.js';
import { UdpSender } from '../../../electron/engine/data-plane/udp/udp-sender.js';

const TAG = Buffer.from('a1b2c3d4e5f60718', 'hex');

describe('UDP on loopback', { timeout: 20_000 }, () => {
  it('20 Mbit/s for 1 s: the asked rate (or the shortfall said), every numbered datagram accounted for', async () => {
    const receiver = new UdpReceiver({ tag: TAG, streamIds: [0] });
    const port = (await receiver.listen()).get(0)!;
    const seconds = 1;
    const bitsPerSec = 20e6;
    const start = process.hrtime.bigint();
    const sender = new UdpSender({
      host: '127.0.0.1',
      port,
      streamId: 0,
      tag: TAG,
      datagramBytes: 1200,
      bitsPerSec,
    });
    // A stranger: a datagram with no header.
    const stranger = dgram.createSocket('udp4');
    try {
      const deadline = start + BigInt(seconds * 1e9);
      await sender.start(deadline);
      // The schedule runs from the sender's first turn (after its connect, which a busy PC delays by tens of ms) to the deadline.
      const scheduledSeconds = Number(deadline - process.hrtime.bigint()) / 1e9;
      await new Promise<void>((r) => stranger.send(Buffer.alloc(100, 1), port, '127.0.0.1', () => r()));
      await sender.finished;
      // Loopback delivers within microseconds; 200 ms lets a busy receiver's event loop read what its socket holds.
      await new Promise((r) => setTimeout(r, 200));
      const c = sender.counts;
      const got = receiver.final(0, sender.lastSeq)!;
      assert.equal(got.datagrams + got.lost, sender.lastSeq, 'arrived + lost = every number the sender used');
      assert.equal(got.duplicates, 0);
      assert.equal(c.sendErrors, 0, c.lastError ?? '');
      assert.equal(receiver.strangers, 1);
      // The schedule's bytes: what went out plus what this PC was too late to send (written off, said).
      const asked = (bitsPerSec / 8) * scheduledSeconds;
      const ratio = (c.bytes + c.shortBytes) / asked;
      assert.ok(
        Math.abs(ratio - 1) <= 0.02,
        `sent ${c.bytes} B (numbered ${sender.lastSeq * 1200}) + short ${c.shortBytes} B = ${ratio.toFixed(4)} × the asked ${asked} B`,
      );
      assert.ok(got.jitterMs !== null && got.jitterMs >= 0);
      // Loopback has no wire and no queue that drops at 20 Mbit/s: a datagram lost here was dropped at the
      // receiving socket, and Linux counts each one there (/proc/net/udp "drops"); other OSes do not say.
      const drops = receiver.socketDrops(0);
      if (process.platform === 'linux') assert.equal(drops, got.lost, `socket drops ${drops} vs lost ${got.lost}`);
      else assert.equal(drops, null);
    } finally {
      stranger.close();
      sender.stop();
      await receiver.close();
    }
  });
});
