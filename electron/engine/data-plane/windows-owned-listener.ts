/**
 * How Windows accepts data connections: the responder's data listener where
 * the addon owns data connections (native/data-path.ts: Windows by default,
 * any OS whose data path is switched to owned: native/switches.ts). Node's listener on the responder's port
 * cannot have its window set there, so each run that needs owned connections
 * gets a listener of its own: created by the addon with the run's window set
 * before listen() (accepted sockets inherit it), bound to the address the
 * controller reached the control channel on, on a free port that the responder
 * announces in `params-ok`. The installer's firewall rule is per program, so
 * it covers this port as it covers the main one (docs/security.md).
 *
 * It takes connections only from the controller's address, reads exactly one
 * data header from each within `headerTimeoutMs`, and holds at most
 * `maxPending` unidentified connections; everything else is closed at once.
 * Each wait is bounded: accept wakes every ACCEPT_WAIT_MS to see a close.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { AppliedWindow } from '../../native/advertised-window.js';
import type { NativeApi, NativeBuffers, NativeOwnedConn } from '../../native/native-api.js';
import type { MssSetup } from '../../native/mss-setup.js';
import { createOwnedSocket, ownedApi } from '../../native/owned-socket.js';
import { plainAddress } from '../../util/net.js';
import { DATA_HEADER_BYTES } from '../../protocol/data-header.js';

/** How long one accept waits before looking at `closed` again, ms. */
const ACCEPT_WAIT_MS = 200;

export interface OwnedConnection {
  fd: number;
  address: string;
  port: number;
  header: Buffer;
}

interface OwnedListenerEvents {
  connection: [OwnedConnection];
  rejected: [string, string];
}

interface OwnedListenerOptions {
  /** Where the controller reached us (the control connection's local address). */
  bindAddress: string;
  /** Only connections from here are read (the control connection's remote address). */
  peerAddress: string;
  windowBytes: number | null;
  /** TCP_MAXSEG on the listener (accepted sockets inherit it); null = the OS's own. */
  mssBytes?: number | null;
  headerTimeoutMs?: number;
  maxPending?: number;
  /** The port to listen on; default 0, a free one (the iperf3 server takes its own port over: iperf3-port-takeover.ts). */
  port?: number;
  /** Bytes each connection sends first; default a Longhaul data header (an iperf3 stream sends its 37-byte cookie). */
  headerBytes?: number;
}

export class WindowsOwnedListener extends EventEmitter<OwnedListenerEvents> {
  readonly port: number;
  readonly window: AppliedWindow | null;
  /** How setting the listener's MSS went; null when none was requested. */
  readonly mss: MssSetup | null;
  /** The listener's buffers as the OS reports them after the window was set (accepted sockets inherit them). */
  readonly effective: NativeBuffers | null;
  private readonly owned: NativeOwnedConn;
  private closed = false;
  private pending = 0;
  private loop: Promise<void> = Promise.resolve();

  private constructor(
    private readonly api: NativeApi,
    private readonly fd: number,
    private readonly o: OwnedListenerOptions,
    port: number,
    window: AppliedWindow | null,
    mss: MssSetup | null,
  ) {
    super();
    this.owned = ownedApi(api);
    this.port = port;
    this.window = window;
    this.mss = mss;
    let effective: NativeBuffers | null = null;
    try {
      effective = api.getBuffers(fd);
    } catch {
      effective = null;
    }
    this.effective = effective;
  }

  /** Create, bind and start accepting. Throws (nothing left open) if the OS refuses. */
  static open(api: NativeApi, o: OwnedListenerOptions): WindowsOwnedListener {
    const bindAddress = plainAddress(o.bindAddress);
    const family = net.isIPv6(bindAddress) ? 6 : 4;
    const { fd, setup } = createOwnedSocket(api, family, o.windowBytes, o.mssBytes ?? null);
    let port: number;
    try {
      port = ownedApi(api).bindListen(fd, bindAddress, o.port ?? 0, 128);
    } catch (err) {
      api.closeFd(fd);
      throw err;
    }
    const l = new WindowsOwnedListener(api, fd, o, port, setup.window ?? null, setup.mss ?? null);
    l.loop = l.acceptLoop();
    return l;
  }

  /** Stop accepting; resolves once the listening socket is closed. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.loop;
  }

  private async acceptLoop(): Promise<void> {
    while (!this.closed) {
      let c: { fd: number; address: string; port: number } | null;
      try {
        c = await this.owned.accept(this.fd, ACCEPT_WAIT_MS);
      } catch (err) {
        this.emit('rejected', 'listener', `accept failed: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, ACCEPT_WAIT_MS));
        continue;
      }
      if (c) this.onAccepted(c);
    }
    this.safeClose(this.fd);
  }

  private onAccepted(c: { fd: number; address: string; port: number }): void {
    const peer = net.isIPv6(c.address) ? `[${c.address}]:${c.port}` : `${c.address}:${c.port}`;
    if (this.closed) return this.turnAway(c.fd, peer, 'the run is no longer taking data connections');
    if (plainAddress(c.address) !== plainAddress(this.o.peerAddress)) {
      return this.turnAway(c.fd, peer, `data connection from ${c.address}, not from the paired controller`);
    }
    if (this.pending >= (this.o.maxPending ?? 32)) return this.turnAway(c.fd, peer, 'too many data connections waiting to identify themselves');
    this.pending++;
    this.owned.readExact(c.fd, this.o.headerBytes ?? DATA_HEADER_BYTES, this.o.headerTimeoutMs ?? 10_000).then(
      (header) => {
        this.pending--;
        if (this.closed) return this.turnAway(c.fd, peer, 'the run is no longer taking data connections');
        this.emit('connection', { ...c, header });
      },
      (err: Error) => {
        this.pending--;
        this.turnAway(c.fd, peer, `no data header: ${err.message}`);
      },
    );
  }

  private turnAway(fd: number, peer: string, reason: string): void {
    this.safeClose(fd);
    this.emit('rejected', peer, reason);
  }

  private safeClose(fd: number): void {
    try {
      this.api.closeFd(fd);
    } catch {
      // already closed: nothing to release
    }
  }
}
