/**
 * Longhaul as an iperf3 server (`longhaul listen --iperf3`): one port, as iperf3's,
 * for the control connection and every data connection, each of which opens with
 * the test's 37-byte cookie. One test at a time: any other connection while a test
 * runs gets ACCESS_DENIED ("the server is busy") and is closed, and a test that loses
 * its client ends within its step's deadline, so the server is never stuck busy.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import type { LonghaulResult } from '../../contract/result.js';
import { dataPath } from '../../native/data-path.js';
import { nativeSockets } from '../../native/load-native.js';
import { tuneListener, tuneListenerMss } from '../../native/tuned-socket.js';
import type { ServerLimits } from '../../protocol/iperf3/params-document.js';
import { encodeState } from '../../protocol/iperf3/reader.js';
import { isWellFormedCookie } from '../../protocol/iperf3/cookie.js';
import { COOKIE_BYTES, IPERF3_STATE, MAX_CLIENT_RESULTS_JSON_BYTES } from '../../protocol/iperf3/states.js';
import { IPERF3_DEFAULT_PORT } from '../../contract/api.js';
import { answerAndClose } from '../../util/answer-and-close.js';
import { cappedServer, listenOn } from '../session/capped-listener.js';
import type { LonghaulError } from '../../util/errors.js';
import { DEFAULT_RESPONDER_LIMITS } from '../session/responder-limits.js';
import { Iperf3Control, iperf3Partner } from './iperf3-control.js';
import { takeOverPort, type TakeoverTuning } from './iperf3-port-takeover.js';
import { DEFAULT_IPERF3_SERVER_TIMEOUTS, Iperf3ServerSession, type Iperf3ServerTimeouts } from './iperf3-server-session.js';

interface Iperf3ServerOptions {
  port?: number;
  host?: string;
  limits?: Partial<ServerLimits>;
  /** How long a new connection may take to send its cookie, ms. */
  cookieTimeoutMs?: number;
  timeoutsMs?: Partial<Iperf3ServerTimeouts>;
  /** Cap on connections that have not sent their cookie yet; more are closed at once. */
  maxPendingConnections?: number;
  maxWorkersPerRole?: number;
  /** Connections held at once, of every kind; more are closed at accept (default MAX_CONNECTIONS, capped-listener.ts). */
  maxConnections?: number;
}

interface Iperf3ServerEvents {
  session: [Iperf3ServerSession];
  'session-end': [LonghaulResult | null, LonghaulError | null];
  rejected: [string, string];
}

type CookieRead = { kind: 'cookie'; cookie: Buffer } | { kind: 'dead'; reason: string };

/**
 * Read a cookie's bytes within `timeoutMs` and pause. A client sends nothing after its
 * cookie until it is asked (PARAM_EXCHANGE on a control connection, TEST_RUNNING on a
 * data connection), so more bytes than the cookie's are a broken or hostile peer.
 */
function readCookie(socket: net.Socket, timeoutMs: number): Promise<CookieRead> {
  return new Promise((resolve) => {
    let got = Buffer.alloc(0);
    const finish = (r: CookieRead): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(r);
    };
    const onClose = (): void => finish({ kind: 'dead', reason: `closed after ${got.length} of the cookie's ${COOKIE_BYTES} bytes` });
    const onData = (chunk: Buffer): void => {
      got = Buffer.concat([got, chunk]);
      if (got.length < COOKIE_BYTES) return;
      socket.pause();
      if (got.length > COOKIE_BYTES) return finish({ kind: 'dead', reason: 'sent bytes after its cookie before being asked' });
      if (!isWellFormedCookie(got)) return finish({ kind: 'dead', reason: 'sent 37 bytes that are not an iperf3 cookie' });
      finish({ kind: 'cookie', cookie: got });
    };
    const timer = setTimeout(
      () => finish({ kind: 'dead', reason: `sent ${got.length} of the cookie's ${COOKIE_BYTES} bytes within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    timer.unref?.();
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

export class Iperf3Server extends EventEmitter<Iperf3ServerEvents> {
  private readonly server: net.Server;
  private active: Iperf3ServerSession | null = null;
  private pending = 0;
  private readonly sockets = new Set<net.Socket>();
  /** Where the addon owns data connections (Windows): the port taken over for a test's streams, given back by this. */
  private giveBack: (() => void) | null = null;
  private closing = false;

  constructor(private readonly opts: Iperf3ServerOptions = {}) {
    super();
    this.server = cappedServer({
      maxConnections: opts.maxConnections,
      onConnection: (s) => this.onConnection(s),
      onRejected: (peer, why) => this.emit('rejected', peer, why),
    });
  }

  listen(): Promise<net.AddressInfo> {
    return listenOn(this.server, this.opts.port ?? IPERF3_DEFAULT_PORT, this.opts.host);
  }

  get busy(): boolean {
    return this.active !== null;
  }

  /** Stop accepting, end every connection (a running test ends partial). Idempotent. */
  close(): Promise<void> {
    this.closing = true;
    this.giveBack?.();
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => {
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    });
  }

  private async onConnection(socket: net.Socket): Promise<void> {
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.on('error', () => undefined); // errors surface as 'close' to whoever owns the socket
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    if (this.pending >= (this.opts.maxPendingConnections ?? 32)) {
      this.emit('rejected', peer, 'too many connections waiting to send their cookie');
      socket.destroy();
      return;
    }
    this.pending++;
    const read = await readCookie(socket, this.opts.cookieTimeoutMs ?? 10_000);
    this.pending--;
    if (read.kind === 'dead') {
      this.emit('rejected', peer, read.reason);
      socket.destroy();
      return;
    }
    const active = this.active;
    if (active) {
      // A data connection of the running test comes from its client's address with its cookie.
      if (active.wantsData(read.cookie) && socket.remoteAddress === active.remoteAddress) return active.acceptData(socket);
      this.emit('rejected', peer, 'busy: an iperf3 test is in progress');
      // Counted as waiting until its answer is out and it is gone.
      this.pending++;
      socket.once('close', () => this.pending--);
      answerAndClose(socket, encodeState(IPERF3_STATE.ACCESS_DENIED));
      return;
    }
    this.startSession(socket, read.cookie);
  }

  private startSession(socket: net.Socket, cookie: Buffer): void {
    socket.resume();
    const native = nativeSockets();
    const api = native.api;
    // Windows: Node's listener cannot have its window set; the addon takes the port over for the streams.
    const owned = api && dataPath().conn.mode === 'owned' ? api : null;
    const session: Iperf3ServerSession = new Iperf3ServerSession(
      new Iperf3Control(socket, MAX_CLIENT_RESULTS_JSON_BYTES, iperf3Partner('client', socket)),
      cookie,
      {
        limits: { ...DEFAULT_RESPONDER_LIMITS, ...this.opts.limits },
        timeoutsMs: { ...DEFAULT_IPERF3_SERVER_TIMEOUTS, ...this.opts.timeoutsMs },
        maxWorkersPerRole: this.opts.maxWorkersPerRole,
        tuneListener: (w) =>
          owned ? this.takeOver(owned, session, w) : api ? tuneListener(api, this.server, w) : { applied: false, reason: native.reason, restore: () => null },
        tuneListenerMss: api ? (b) => tuneListenerMss(api, this.server, b) : undefined,
      },
    );
    this.active = session;
    // The streams are in: the port goes back to Node (busy answers again) while the test runs.
    session.on('phase', (p) => {
      if (p === 'running') this.giveBack?.();
    });
    session.once('end', (result, err) => {
      if (this.active === session) this.active = null;
      this.emit('session-end', result, err);
    });
    this.emit('session', session);
  }

  /** Take the port over for this test's streams (iperf3-port-takeover.ts); the tuning records whether the window was applied. */
  private takeOver(api: NonNullable<ReturnType<typeof nativeSockets>['api']>, session: Iperf3ServerSession, windowBytes: number): TakeoverTuning {
    const port = (this.server.address() as net.AddressInfo | null)?.port ?? this.opts.port ?? IPERF3_DEFAULT_PORT;
    const tuning = takeOverPort(api, {
      server: this.server,
      host: this.opts.host,
      port,
      bindAddress: session.localAddress,
      peerAddress: session.remoteAddress,
      windowBytes,
      cookieTimeoutMs: this.opts.cookieTimeoutMs ?? 10_000,
      onStream: (fd, cookie, peer) => {
        if (this.active === session && session.wantsData(cookie)) return void session.acceptOwned(fd);
        try {
          api.closeFd(fd);
        } catch {
          // already closed
        }
        this.emit('rejected', peer, 'not a stream of the test in progress (the port is taken over for its streams)');
      },
      onRejected: (peer, why) => this.emit('rejected', peer, why),
      onRelistenFailed: (why) => this.emit('rejected', 'listener', why),
      keepListening: () => !this.closing,
    });
    if (tuning.applied) {
      this.giveBack = () => {
        this.giveBack = null;
        tuning.restore();
      };
    }
    return {
      ...tuning,
      restore: () => {
        this.giveBack?.();
        return null;
      },
    };
  }
}
