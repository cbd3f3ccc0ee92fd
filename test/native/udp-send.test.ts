/**
 * The addon's UDP sender (native/src/udp_send.cc) on real loopback sockets: its datagrams read as
 * datagram.ts reads Longhaul's header (the wire format in C++ and TypeScript agree: magic, stream
 * id, numbers from 1 without a gap, the cookie, send times on process.hrtime's clock), it keeps the
 * asked rate, ends at its deadline, its byte budget or a stop, and counts what it sent.
 * POSIX only (Windows sends through Node's dgram: udpSendSupported is false there).
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import type { NativeUdpSend, UdpSendEndReason, UdpSendOptions } from '../../electron/native/native-api.js';
import { readLonghaulHeader } from '../../electron/engine/data-plane/udp/datagram.js';
import { requireNative, skipWithoutNative } from '../helpers/native.js';
import { within } from '../helpers/net.js';

const skip = skipWithoutNative || (process.platform === 'win32' && 'Windows sends UDP through Node');
const TAG = Buffer.from('0123456789abcdef', 'hex');

describe('native UDP sender', { timeout: 30_000, skip }, () => {
  let receiver: dgram.Socket;
  let port: number;
  const got: Buffer[] = [];

  before(async () => {
    receiver = dgram.createSocket({ type: 'udp4', recvBufferSize: 8 << 20 });
    receiver.on('message', (m) => got.push(m));
    await new Promise<void>((r) => receiver.bind(0, '127.0.0.1', () => r()));
    port = receiver.address().port;
  });
  after(() => receiver.close());

  /** A connected sender socket and the loop on it; `ended` settles with its reason once it let go of the socket. */
  async function send(
    o: Partial<UdpSendOptions>,
  ): Promise<{ loop: NativeUdpSend; ended: Promise<{ err: Error | null; reason: UdpSendEndReason }>; socket: dgram.Socket }> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((r) => socket.connect(port, '127.0.0.1', () => r()));
    const fd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
    let loop: NativeUdpSend | null = null;
    const ended = new Promise<{ err: Error | null; reason: UdpSendEndReason }>((resolve) => {
      loop = requireNative().startUdpSend(fd, { datagramBytes: 1000, bytesPerSec: 2.5e6, streamId: 7, tag: TAG, ...o }, (err, reason) =>
        resolve({ err, reason }),
      );
    });
    assert.ok(loop, 'startUdpSend returned a loop');
    return { loop: loop!, ended, socket };
  }

  /** Wait until `n` datagrams arrived (loopback loses none at these rates into an 8 MiB buffer), bounded. */
  async function arrived(n: number): Promise<void> {
    await within(
      (async () => {
        while (got.length < n) await new Promise((r) => setTimeout(r, 10));
      })(),
      5000,
      `${n} datagrams`,
    );
  }

  it('sends numbered datagrams datagram.ts reads, at the asked rate, until its deadline', async () => {
    got.length = 0;
    const start = process.hrtime.bigint();
    // 20 Mbit/s of 1,000-byte datagrams for 0.5 s: 1,250 datagrams.
    const { loop, ended, socket } = await send({ deadlineNs: start + 500_000_000n });
    const end = await within(ended, 5000, 'the deadline');
    socket.close();
    assert.equal(end.reason, 'deadline');
    assert.equal(end.err, null);
    const [datagrams, bytes, shortBytes, sendErrors, lastSeq, firstNs, lastNs, running] = loop.snapshot();
    assert.equal(running, false);
    assert.equal(sendErrors, 0);
    assert.equal(bytes, datagrams * 1000);
    assert.equal(lastSeq, datagrams);
    // The schedule from the loop's first turn to the deadline: 1,250 datagrams, less what its start took (the first
    // turn comes a few ms after `start`), each one sent or counted short.
    const scheduled = 2.5e6 * (Number(500_000_000n - (firstNs - start)) / 1e9);
    assert.ok(Math.abs(datagrams * 1000 + shortBytes - scheduled) <= 2000, `${datagrams} sent + ${shortBytes} B short for ${scheduled} B scheduled`);
    assert.ok(firstNs >= start && lastNs <= start + 500_000_000n, 'send times within the run, on process.hrtime');
    await arrived(datagrams);
    const headers = got.map((m) => readLonghaulHeader(m, TAG));
    assert.ok(
      headers.every((h) => h !== null && h.streamId === 7),
      "every datagram has this run's header and stream id",
    );
    assert.deepEqual(
      headers.map((h) => h!.seq),
      Array.from({ length: datagrams }, (_, i) => i + 1),
      'numbers from 1, no gap, in order',
    );
    assert.ok(
      headers.every((h, i) => i === 0 || h!.sentNs >= headers[i - 1]!.sentNs),
      'send times never go back',
    );
    assert.equal(readLonghaulHeader(got[0]!, Buffer.alloc(8)), null, "another run's cookie does not read");
  });

  it('ends at its byte budget, or within 50 ms of a stop', async () => {
    got.length = 0;
    const budget = await send({ budgetBytes: 10_500, bytesPerSec: 1e9 / 8 });
    assert.equal((await within(budget.ended, 5000, 'the budget')).reason, 'budget');
    budget.socket.close();
    assert.equal(budget.loop.snapshot()[0], 10, 'whole datagrams within the budget');

    const open = await send({ bytesPerSec: 1e5 });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    open.loop.stop();
    const stopped = await within(open.ended, 5000, 'the stop');
    open.socket.close();
    assert.equal(stopped.reason, 'stopped');
    // The loop sleeps at most 50 ms between checks of its stop flag; + 200 ms for a busy PC's scheduling.
    assert.ok(performance.now() - t0 < 250, `stopped after ${(performance.now() - t0).toFixed(0)} ms`);
  });
});
