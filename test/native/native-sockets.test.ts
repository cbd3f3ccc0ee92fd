/**
 * The socket addon on real loopback sockets: the window set on a listener or
 * before connect shows on the wire (tcp_info), requested vs effective sizes,
 * restoring a listener, the cost of one TCP_INFO read, and OS errors.
 */
import assert from 'node:assert/strict';
import { openSync, closeSync } from 'node:fs';
import net from 'node:net';
import { describe, it } from 'node:test';
import { ClampPoller } from '../../electron/native/advertised-window.js';
import { adoptionUnsupportedReason, createTunedSocket, tuneListener } from '../../electron/native/tuned-socket.js';
import { socketFd } from '../../electron/native/node-handle.js';
import { closeServer, listenLocal, requireNative, skipWithoutNative, sysctlBytes, writeBytes } from '../helpers/native.js';
import { within } from '../helpers/net.js';

const opts = { timeout: 15_000, skip: skipWithoutNative };

/**
 * Connect a plain (autotuned) client to a listener whose buffers are `windowBytes`
 * (null: left to autotuning); send 512 KiB and read the sender's view.
 */
async function sendToSmallListener(
  windowBytes: number | null,
): Promise<{ sender: ReturnType<ReturnType<typeof requireNative>['tcpInfo']>; receiverRcvBuf: number | null; receiverWscale: number | null }> {
  const api = requireNative();
  let accepted: net.Socket | null = null;
  const { server, port } = await listenLocal((s) => {
    accepted = s;
    s.resume();
  });
  const client = net.connect({ host: '127.0.0.1', port });
  try {
    if (windowBytes !== null) api.setBuffers(socketFd(server)!, windowBytes, windowBytes); // after listen, before the SYN: as the responder does
    await within(new Promise((r) => client.once('connect', r)), 5000, 'connect');
    await within(writeBytes(client, 512 * 1024), 10_000, 'send 512 KiB');
    const sender = api.tcpInfo(socketFd(client)!);
    const acc = accepted as net.Socket | null;
    assert.ok(acc, 'the server accepted the connection');
    const fd = socketFd(acc);
    return { sender, receiverRcvBuf: api.getBuffers(fd!).rcvBufBytes, receiverWscale: api.tcpInfo(fd!).rcvWscale };
  } finally {
    client.destroy();
    (accepted as net.Socket | null)?.destroy();
    await closeServer(server);
  }
}

describe('native sockets (Linux, loopback)', () => {
  it('a listener with SO_RCVBUF 8760: accepted sockets inherit it, the sender sees a small window and window scale 0', opts, async () => {
    const baseline = await sendToSmallListener(null);
    const r = await sendToSmallListener(8760);
    assert.equal(r.receiverRcvBuf, 2 * 8760, "Linux doubles the request, and the accepted socket inherits the listener's size");
    assert.equal(r.receiverWscale, 0);
    assert.equal(r.sender.sndWscale, 0, 'the receiver announced window scale 0');
    // Typically exactly 8,760 on loopback; Linux >= 6.5 sizes the window from the buffer with a
    // measured payload/truesize ratio, so 13,140 (3 × MSS 4,380) also occurs. The buffer is the bound.
    const wnd = r.sender.sndWndBytes;
    assert.ok(wnd !== null && wnd > 0 && wnd <= 2 * 8760, `snd_wnd ${wnd}`);
    assert.ok(baseline.sender.sndWndBytes! > 4 * wnd, `autotuned window ${baseline.sender.sndWndBytes} vs ${wnd}: the setting made the difference`);
    assert.ok(baseline.sender.sndWscale! > 0, 'autotuning negotiates a scale');
    assert.equal(r.sender.source, 'linux-tcp_info');
  });

  it('a listener with 4 MiB negotiates a window scale > 0; the effective size is doubled and capped at rmem_max', opts, async () => {
    const requested = 4 * 1024 * 1024;
    const r = await sendToSmallListener(requested);
    assert.ok(r.sender.sndWscale !== null && r.sender.sndWscale > 0, `scale ${r.sender.sndWscale}`);
    assert.equal(r.receiverRcvBuf, 2 * Math.min(requested, sysctlBytes('rmem_max')));
    assert.ok(r.sender.sndWndBytes! > 65_535, `a scaled window exceeds 64 KiB: ${r.sender.sndWndBytes}`);
  });

  it('a tuned client socket: buffers set before connect, Node adopts it, onread receives every byte', opts, async () => {
    const api = requireNative();
    // 256 KiB, not more: on loopback (MSS ~64 KiB) a window clamped below one MSS crawls through the
    // receiver's silly-window avoidance and the persist timer (1 MiB took 3-10 s); real links (MSS 1448) do not.
    const total = 256 * 1024;
    let serverSide: net.Socket | null = null;
    const { server, port } = await listenLocal((s) => {
      serverSide = s;
      // As in a run, data flows only once the client says so (there: the start message).
      s.once('data', () => void writeBytes(s, total).then(() => s.end()));
    });
    const readBuffer = Buffer.alloc(16 * 1024);
    let received = 0;
    let reads = 0;
    const { socket: client, applied } = createTunedSocket(api, {
      family: 4,
      windowBytes: 8760,
      onread: { buffer: readBuffer, callback: (n) => ((received += n), reads++, true) },
    });
    try {
      const before = api.getBuffers(socketFd(client)!);
      // Linux: the window is the advertised-window clamp, with buffers of twice it (read back doubled again).
      const effective = api.windowClamp ? 35_040 : 17_520;
      assert.deepEqual([before.sndBufBytes, before.rcvBufBytes, before.rcvLocked], [effective, effective, true]);
      assert.equal(applied?.clampBytes, api.windowClamp ? 8760 : null);
      if (api.windowClamp) assert.equal(api.windowClamp.get(socketFd(client)!), 8760);
      client.connect({ host: '127.0.0.1', port });
      await within(new Promise((r) => client.once('connect', r)), 5000, 'connect');
      const mine = api.tcpInfo(socketFd(client)!);
      assert.equal(mine.rcvWscale, 0, 'the client announced scale 0 in its SYN');
      // Linux >= 6.8 replaces a pre-handshake clamp when it first measures the data's payload/memory
      // ratio; the engine's ClampWatch (as stream-socket.ts sets it) puts it back.
      const poller = new ClampPoller({ nowNs: () => process.hrtime.bigint(), setInterval, clearInterval });
      const watch = api.windowClamp ? poller.watch(api, socketFd(client)!, 8760, () => !client.destroyed) : null;
      client.once('close', () => watch?.stopPolling());
      client.write('g');
      await within(new Promise((r) => client.once('end', r)), 15_000, 'receive 256 KiB');
      // On loopback 256 KiB may cross in a few ms, before the watch's first 5 ms check, through whatever
      // window the kernel re-derived (seen: 10,950 B). What must hold: after a check the clamp is the
      // request again. (The advertised window over a real link: test/wan/wan-window.test.ts.)
      if (watch && api.windowClamp) {
        watch.check();
        assert.equal(api.windowClamp.get(socketFd(client)!), 8760, `clamp after the watch (corrections: ${watch.corrections})`);
      }
      watch?.stopPolling();
      assert.equal(poller.size, 0, 'the poller lets go of a watch that stopped');
      assert.equal(received, total);
      assert.ok(reads >= total / readBuffer.length, `${reads} reads into the 16 KiB user buffer`);
    } finally {
      client.destroy();
      (serverSide as net.Socket | null)?.destroy();
      await closeServer(server);
    }
  });

  it('tuneListener reports the effective size and restore() gives back size and autotuning', opts, async () => {
    const api = requireNative();
    const { server } = await listenLocal(() => undefined);
    try {
      const fd = socketFd(server)!;
      const before = api.getBuffers(fd);
      assert.equal(before.rcvLocked, false, 'a fresh listener autotunes');
      const clampBefore = api.windowClamp?.get(fd) ?? null;
      const t = tuneListener(api, server, 8760);
      assert.ok(t.applied);
      assert.equal(t.effective.rcvBufBytes, api.windowClamp ? 35_040 : 17_520);
      assert.equal(t.effective.rcvLocked, true);
      if (api.windowClamp) {
        assert.equal(api.windowClamp.get(fd), 8760, 'accepted sockets inherit the clamp');
        assert.equal(t.window?.clampBytes, 8760);
      }
      assert.equal(t.restore(), null);
      assert.deepEqual(api.getBuffers(fd), before);
      // A listener refuses a clamp of 0; restore sets what 0 becomes at the handshake (65,535 << 14).
      if (api.windowClamp) assert.equal(api.windowClamp.get(fd), clampBefore === 0 ? 65_535 * 2 ** 14 : clampBefore);
      assert.equal(t.restore(), null, 'restore is idempotent');
    } finally {
      await closeServer(server);
    }
  });

  it('restore() never touches the descriptor of a closed server', opts, async () => {
    const api = requireNative();
    const { server } = await listenLocal(() => undefined);
    const t = tuneListener(api, server, 8760);
    await closeServer(server);
    assert.equal(t.restore(), null);
  });

  it('one TCP_INFO read is cheap enough for every stream at every tick', opts, async () => {
    const api = requireNative();
    const { server, port } = await listenLocal((s) => s.resume());
    const client = net.connect({ host: '127.0.0.1', port });
    try {
      await within(new Promise((r) => client.once('connect', r)), 5000, 'connect');
      const fd = socketFd(client)!;
      const n = 20_000;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) api.tcpInfo(fd);
      const usPerCall = Number(process.hrtime.bigint() - t0) / 1e3 / n;
      console.log(`# tcpInfo: ${usPerCall.toFixed(2)} µs per call (${n} calls)`);
      // 128 streams at 10 ticks/s would be 1,280 calls/s: even 100 µs each is 13% of a core. Measured ~2 µs.
      assert.ok(usPerCall < 100, `${usPerCall} µs per call`);
    } finally {
      client.destroy();
      await closeServer(server);
    }
  });

  it('OS errors come back as errors with errno and syscall; bad arguments as TypeError', opts, () => {
    const api = requireNative();
    const fd = openSync('/dev/null', 'r');
    try {
      assert.throws(
        () => api.tcpInfo(fd),
        (e: Error & { errno?: number; syscall?: string }) => e.errno === 88 && e.syscall === 'getsockopt(TCP_INFO)',
      );
    } finally {
      closeSync(fd);
    }
    assert.throws(() => api.tcpInfo(-1), TypeError);
    assert.throws(() => api.setBuffers('3' as unknown as number, 1, 1), TypeError);
    assert.throws(() => api.createTcpSocket(null as never), TypeError);
  });

  it('Windows is refused up front with the reason (Node cannot adopt a SOCKET), Unix is not', () => {
    assert.match(adoptionUnsupportedReason('win32') ?? '', /cannot adopt a native SOCKET on Windows/);
    assert.equal(adoptionUnsupportedReason('linux'), null);
    assert.equal(adoptionUnsupportedReason('darwin'), null);
  });
});
