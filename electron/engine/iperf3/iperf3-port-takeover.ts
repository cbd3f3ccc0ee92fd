/**
 * The iperf3 server's window before the handshake where the addon owns data connections
 * (native/data-path.ts: Windows). There Node neither exposes its listener's SOCKET nor adopts
 * one, so its listener's buffers cannot be set; and an iperf3 client opens its streams on the
 * control port, so a listener on another port (as the native protocol's windows-owned-listener.ts) is
 * not an option. Instead, for the streams of a test that asks for a window, the port is taken
 * over: Node's listener stops listening (the control connection stays), the addon listens on
 * the same address and port with SO_RCVBUF/SO_SNDBUF set before listen() (accepted sockets
 * inherit them), takes this test's streams (each opens with the test's 37-byte cookie, from
 * the client's address only), and the port goes back to Node once they are in or the test ends.
 *
 * While taken over, another iperf3 client's connection is closed without iperf3's "busy" byte
 * (the addon accepts and reads only). Where the port cannot be taken (the OS refuses the bind),
 * Node listens again at once and the window is recorded as not applied, with the OS's reason.
 */
import type net from 'node:net';
import type { NativeApi } from '../../native/native-api.js';
import { plainAddress } from '../../util/net.js';
import type { ListenerTuning } from '../../native/tuned-socket.js';
import { COOKIE_BYTES } from '../../protocol/iperf3/states.js';
import { WindowsOwnedListener } from '../data-plane/windows-owned-listener.js';

interface TakeoverOptions {
  /** Node's listener on the iperf3 port; stopped for the streams, listened again after. */
  server: net.Server;
  /** The address and port Node listened on (undefined host: all addresses). */
  host: string | undefined;
  port: number;
  /** Where the client reached us: the control connection's local address. */
  bindAddress: string;
  /** The control connection's remote address: only its streams are taken. */
  peerAddress: string;
  windowBytes: number;
  cookieTimeoutMs: number;
  /** A stream of this test (its cookie checked by the caller); the caller owns `fd` from here. */
  onStream: (fd: number, cookie: Buffer, peer: string) => void;
  onRejected: (peer: string, why: string) => void;
  /** Node's listener could not listen again: the server no longer takes new tests. */
  onRelistenFailed: (why: string) => void;
  /** False once the server is closing: then the port is not listened on again. */
  keepListening: () => boolean;
}

/** A listener tuning, and when the port takes the test's streams (wait for it before CREATE_STREAMS). */
export type TakeoverTuning = ListenerTuning & { ready: Promise<void> };

/** Take the port over for one test's streams; `restore()` (also called once the streams are in) gives it back. */
export function takeOverPort(api: NativeApi, o: TakeoverOptions): TakeoverTuning {
  const noop = (): null => null;
  // Node listens after a lookup of the host (a tick later even for an address): `ready` says when.
  const relisten = (): Promise<void> =>
    new Promise((resolve) => {
      if (!o.keepListening()) return resolve();
      const onError = (err: Error): void => {
        o.onRelistenFailed(`could not listen on TCP port ${o.port} again after a test's streams: ${err.message}`);
        resolve();
      };
      o.server.once('error', onError);
      o.server.listen(o.port, o.host, () => {
        o.server.off('error', onError);
        resolve();
      });
    });
  // Stop Node accepting: its handle closes now, accepted connections (the control one) stay open.
  o.server.close();
  let listener: WindowsOwnedListener;
  try {
    listener = WindowsOwnedListener.open(api, {
      bindAddress: plainAddress(o.bindAddress),
      peerAddress: o.peerAddress,
      windowBytes: o.windowBytes,
      port: o.port,
      headerBytes: COOKIE_BYTES,
      headerTimeoutMs: o.cookieTimeoutMs,
    });
  } catch (err) {
    // The client opens its streams once told: not before Node listens again.
    const ready = relisten();
    return {
      applied: false,
      reason: `the iperf3 port ${o.port} could not be taken over to set the window before the streams' handshake: ${(err as Error).message}`,
      restore: noop,
      ready,
    };
  }
  listener.on('connection', (c) => o.onStream(c.fd, c.header, `${c.address}:${c.port}`));
  listener.on('rejected', (peer, why) => o.onRejected(peer, why));
  let given = false;
  const restore = (): null => {
    if (given) return null;
    given = true;
    void listener.close().then(relisten);
    return null;
  };
  const effective = listener.effective ?? { sndBufBytes: null, rcvBufBytes: null, sndLocked: null, rcvLocked: null };
  return { applied: true, effective, window: listener.window, restore, ready: Promise.resolve() };
}
