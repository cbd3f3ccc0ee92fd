/** The sender's unsent-backlog bound (TCP_NOTSENT_LOWAT): its arithmetic, and on a real socket. */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { nativeSockets } from '../../electron/native/load-native.js';
import { socketFd } from '../../electron/native/node-handle.js';
import { INITIAL_LOWAT_BYTES, MAX_LOWAT_BYTES, MIN_LOWAT_BYTES, SendBacklog, lowatFor } from '../../electron/engine/data-plane/send-backlog.js';
import { within } from '../helpers/net.js';

describe('send backlog bound', () => {
  it('is a quarter second of the measured rate, within 16 KiB and 8 MiB', () => {
    assert.equal(lowatFor(500_000), 125_000, '4 Mbit/s: 125,000 B');
    assert.equal(lowatFor(0), MIN_LOWAT_BYTES);
    assert.equal(lowatFor(2.5e9), MAX_LOWAT_BYTES, '20 Gbit/s loopback: capped (above the send buffer)');
  });

  it('starts at 128 KiB, follows what the path took (acknowledged bytes), and lets go of gone streams', async () => {
    const set: [number, number][] = [];
    const delivered = new Map<number, number | null>([[1, 0]]);
    const b = new SendBacklog(
      (fd, bytes) => void set.push([fd, bytes]),
      (id) => delivered.get(id) ?? null,
      false,
    );
    b.add(1, 42);
    assert.deepEqual(set, [[42, INITIAL_LOWAT_BYTES]]);
    await new Promise((r) => setTimeout(r, 200));
    delivered.set(1, 100_000); // ~0.5 MB/s over the last 200 ms
    b.tick();
    const lowat = b.lowatOf(1)!;
    assert.ok(lowat > 100_000 && lowat < 140_000, `bound ${lowat} B for ~0.5 MB/s`);
    assert.equal(set.at(-1)![1], lowat);
    const calls = set.length;
    await new Promise((r) => setTimeout(r, 200));
    delivered.set(1, 205_000); // about the same rate: within the hysteresis, no new call
    b.tick();
    assert.equal(set.length, calls);
    delivered.set(1, null);
    b.tick();
    assert.equal(b.lowatOf(1), undefined, 'a stream that is gone is dropped');
    b.remove(1);
  });

  it('a paced stream: at most 250 ms of its pace, from the first bound on, whatever a burst measured', async () => {
    const set: [number, number][] = [];
    const delivered = new Map<number, number | null>([[1, 0]]);
    const b = new SendBacklog(
      (fd, bytes) => void set.push([fd, bytes]),
      (id) => delivered.get(id) ?? null,
      false,
    );
    b.add(1, 7, 125_000); // -b 1M: 125 kB/s
    assert.deepEqual(set, [[7, lowatFor(125_000)]], 'the first bound is the pace, not 128 KiB');
    await new Promise((r) => setTimeout(r, 100));
    delivered.set(1, 440_000); // the initial window's burst, unpaced, in the first 100 ms
    b.tick();
    assert.equal(b.lowatOf(1), lowatFor(125_000), 'a burst does not raise it above the pace');
    b.remove(1);
  });

  it('a setter that throws (socket closed under us) drops the stream instead of failing the run', () => {
    const b = new SendBacklog(
      () => {
        throw Object.assign(new Error('EBADF'), { code: 'EBADF' });
      },
      () => 0,
      false,
    );
    b.add(7, 99);
    assert.equal(b.lowatOf(7), undefined);
  });
});

const api = nativeSockets().api;
describe('TCP_NOTSENT_LOWAT on a real socket', { skip: api?.setNotSentLowat ? false : 'the addon has no TCP_NOTSENT_LOWAT here' }, () => {
  const sockets: net.Socket[] = [];
  let server: net.Server | null = null;
  after(() => {
    for (const s of sockets) s.destroy();
    server?.close();
  });

  it('a sender whose peer does not read queues about the bound, not megabytes', { timeout: 10_000 }, async () => {
    // The peer never reads: what the sender's socket takes is its own backlog plus the peer's buffers.
    server = net.createServer((c) => {
      sockets.push(c);
      c.pause();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const taken = async (bound: number | null): Promise<number> => {
      const s = net.connect((server!.address() as net.AddressInfo).port, '127.0.0.1');
      sockets.push(s);
      await within(new Promise((r) => s.once('connect', r)), 5_000, 'connect');
      if (bound !== null) api!.setNotSentLowat!(socketFd(s)!, bound);
      const chunk = Buffer.alloc(16 * 1024);
      let bytes = 0;
      for (let i = 0; i < 2_000; i++) {
        if (!s.write(chunk)) break;
        bytes += chunk.length;
        await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setTimeout(r, 100));
      return bytes + chunk.length - s.writableLength;
    };
    const unbounded = await taken(null);
    const bounded = await taken(16 * 1024);
    assert.ok(bounded < unbounded / 2, `with a 16 KiB bound the socket took ${bounded} B, without ${unbounded} B`);
  });
});
