/**
 * The responder's per-run data listener for addon-owned connections (the Windows path, run
 * here on the POSIX build of the same addon): it hands on exactly one header per connection,
 * turns away strangers, idlers and floods at once, and accepted sockets carry the window
 * that was set on it before listen().
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { WindowsOwnedListener, type OwnedConnection } from '../../electron/engine/data-plane/windows-owned-listener.js';
import { nativeSockets } from '../../electron/native/load-native.js';
import { dialOwned, ownedDialFailure } from '../../electron/native/owned-socket.js';
import { DATA_HEADER_BYTES, encodeDataHeader } from '../../electron/protocol/data-header.js';
import { within } from '../helpers/net.js';

const api = nativeSockets().api;
const skip = !api?.owned ? 'this build of the addon cannot own data connections' : false;
const COOKIE = '0123456789abcdef0123456789abcdef';

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves when the peer closes `s` (or resets it). */
function closedByPeer(s: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    s.on('error', () => undefined);
    s.once('close', () => resolve());
    s.resume();
  });
}

describe("Windows' owned data listener (run here on POSIX)", { timeout: 30_000, skip }, () => {
  it('hands on exactly the header, with the window set before listen() inherited by the accepted socket', async () => {
    const l = WindowsOwnedListener.open(api!, { bindAddress: '127.0.0.1', peerAddress: '127.0.0.1', windowBytes: 64 * 1024 });
    try {
      assert.ok(l.port > 0);
      const got = new Promise<OwnedConnection>((resolve) => l.once('connection', resolve));
      const s = await connect(l.port);
      // The header plus payload bytes behind it: the listener must read the header only.
      s.write(Buffer.concat([encodeDataHeader(COOKIE, 3), Buffer.from('payload')]));
      const c = await within(got, 5000, 'connection');
      assert.equal(c.header.length, DATA_HEADER_BYTES);
      assert.deepEqual(c.header, encodeDataHeader(COOKIE, 3));
      assert.equal(c.address, '127.0.0.1');
      const rest = await api!.owned!.readExact(c.fd, 7, 2000);
      assert.equal(rest.toString(), 'payload', 'the bytes behind the header are still in the socket');
      const b = api!.getBuffers(c.fd);
      // Linux doubles what was set: a clamp-capable build asks for 2 W, others for W.
      const asked = api!.windowClamp ? 2 * 64 * 1024 : 64 * 1024;
      assert.equal(b.rcvBufBytes, process.platform === 'linux' ? 2 * asked : asked, "accepted socket inherited the listener's buffers");
      if (api!.windowClamp) assert.equal(api!.windowClamp.get(c.fd), 64 * 1024, 'and its window clamp');
      api!.closeFd(c.fd);
      s.destroy();
    } finally {
      await l.close();
    }
  });

  it("turns away a connection from another address than the controller's, at once", async () => {
    const l = WindowsOwnedListener.open(api!, { bindAddress: '127.0.0.1', peerAddress: '127.0.0.2', windowBytes: null });
    try {
      const rejected = new Promise<[string, string]>((resolve) => l.once('rejected', (...a) => resolve(a)));
      const s = await connect(l.port);
      const [, reason] = await within(rejected, 2000, 'rejected');
      assert.match(reason, /not from the paired controller/);
      await within(closedByPeer(s), 2000, 'closed');
    } finally {
      await l.close();
    }
  });

  it('closes a connection that sends no header in time, and one that closes half-way', async () => {
    const l = WindowsOwnedListener.open(api!, { bindAddress: '127.0.0.1', peerAddress: '127.0.0.1', windowBytes: null, headerTimeoutMs: 300 });
    try {
      const reasons: string[] = [];
      l.on('rejected', (_p, r) => reasons.push(r));
      const idle = await connect(l.port);
      const t0 = Date.now();
      await within(closedByPeer(idle), 3000, 'idle closed');
      assert.ok(Date.now() - t0 < 2000, 'within the header timeout, not later');
      const half = await connect(l.port);
      half.end(encodeDataHeader(COOKIE, 1).subarray(0, 10));
      await within(closedByPeer(half), 3000, 'half closed');
      await within(
        new Promise<void>((r) => {
          const t = setInterval(() => {
            if (reasons.length >= 2) {
              clearInterval(t);
              r();
            }
          }, 20);
        }),
        3000,
        'two rejections',
      );
      assert.ok(
        reasons.every((r) => r.startsWith('no data header')),
        reasons.join('; '),
      );
    } finally {
      await l.close();
    }
  });

  it('holds at most maxPending unidentified connections; the rest are closed at once', async () => {
    const l = WindowsOwnedListener.open(api!, { bindAddress: '127.0.0.1', peerAddress: '127.0.0.1', windowBytes: null, headerTimeoutMs: 3000, maxPending: 2 });
    const sockets: net.Socket[] = [];
    try {
      const flood: string[] = [];
      l.on('rejected', (_p, r) => flood.push(r));
      for (let i = 0; i < 5; i++) sockets.push(await connect(l.port));
      await within(
        new Promise<void>((r) => {
          const t = setInterval(() => {
            if (flood.length >= 3) {
              clearInterval(t);
              r();
            }
          }, 20);
        }),
        3000,
        'three turned away',
      );
      assert.equal(flood.filter((r) => /too many/.test(r)).length, 3);
      // A real stream still gets in once a slot frees: the two idlers time out, not the listener.
      const got = new Promise<OwnedConnection>((resolve) => l.once('connection', resolve));
      sockets[0]!.write(encodeDataHeader(COOKIE, 0));
      const c = await within(got, 5000, 'the first connection identified itself');
      api!.closeFd(c.fd);
    } finally {
      for (const s of sockets) s.destroy();
      await l.close();
    }
  });

  it('close() ends the accept loop and frees the port', async () => {
    const l = WindowsOwnedListener.open(api!, { bindAddress: '127.0.0.1', peerAddress: '127.0.0.1', windowBytes: null });
    const port = l.port;
    await within(l.close(), 2000, 'close');
    await assert.rejects(connect(port), /ECONNREFUSED/);
  });

  it('an owned dial to a port where nothing listens fails at once, closed, and says what to allow', async () => {
    const spare = net.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const port = (spare.address() as net.AddressInfo).port;
    await new Promise<void>((r) => spare.close(() => r()));
    const t0 = Date.now();
    const err = await dialOwned(api!, '127.0.0.1', port, 8192, encodeDataHeader(COOKIE, 0), 5000).then(
      () => null,
      (e: NodeJS.ErrnoException) => e,
    );
    assert.ok(err, 'the dial must fail');
    assert.ok(Date.now() - t0 < 2000, 'a refusal is immediate, not the timeout');
    assert.equal(err.syscall, 'connect');
    assert.match(ownedDialFailure('127.0.0.1', port, err), new RegExp(`cannot reach 127\\.0\\.0\\.1:${port} for data .*allow Longhaul itself`));
  });
});
