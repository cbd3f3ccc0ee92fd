/**
 * Data connections the addon owns end to end (data-path.ts says when): the
 * connecting side creates the socket with its window set, connects it with a
 * timeout and writes the data header, all before Node could have touched it.
 * The accepting side is engine/data-plane/windows-owned-listener.ts.
 */
import { bufferBytesFor, clampWindow } from './advertised-window.js';
import { applyMss, type MssSetup } from './mss-setup.js';
import type { NativeApi, NativeOwnedConn } from './native-api.js';
import type { WindowSetup } from './socket-report.js';
import { resolveHost } from './tuned-socket.js';

interface OwnedDial {
  /** The connected socket (SOCKET on Windows, descriptor elsewhere); the caller closes it with api.closeFd. */
  fd: number;
  setup: WindowSetup;
}

/** The addon's owned-connection calls, or an error saying why there are none. */
export function ownedApi(api: NativeApi): NativeOwnedConn {
  if (!api.owned) throw new Error('this build of the native addon cannot own data connections (rebuild it: npm run build:native)');
  return api.owned;
}

/** The window setup of a socket whose window was (or was not) requested before its handshake. */
function ownedSetup(windowBytes: number | null, window: ReturnType<typeof clampWindow> | null, mss: MssSetup | null = null): WindowSetup {
  if (windowBytes === null) return { requestedBytes: null, appliedBeforeHandshake: false, reason: null, mss };
  return { requestedBytes: windowBytes, appliedBeforeHandshake: true, reason: null, window, mss };
}

/**
 * A new socket with `windowBytes` set (or the OS default for null) and TCP_MAXSEG `mssBytes`
 * (a refusal is reported in the setup, not thrown), in the family of `address`.
 * Closed again if setting the window fails.
 */
export function createOwnedSocket(
  api: NativeApi,
  family: 4 | 6,
  windowBytes: number | null,
  mssBytes: number | null = null,
): { fd: number; setup: WindowSetup } {
  const buffer = windowBytes === null ? 0 : bufferBytesFor(api, windowBytes);
  const { fd } = api.createTcpSocket({ family, sndBufBytes: buffer, rcvBufBytes: buffer, noDelay: true });
  try {
    const window = windowBytes === null ? null : clampWindow(api, fd, windowBytes);
    return { fd, setup: ownedSetup(windowBytes, window, mssBytes ? applyMss(api, fd, mssBytes) : null) };
  } catch (err) {
    api.closeFd(fd);
    throw err;
  }
}

/** Connect to `host:port` with the window and MSS set before the SYN and send `header`; rejects (socket closed) on failure. */
export async function dialOwned(
  api: NativeApi,
  host: string,
  port: number,
  windowBytes: number | null,
  header: Buffer,
  timeoutMs: number,
  mssBytes: number | null = null,
): Promise<OwnedDial> {
  const owned = ownedApi(api);
  const { address, family } = await resolveHost(host);
  const { fd, setup } = createOwnedSocket(api, family, windowBytes, mssBytes);
  try {
    await owned.connect(fd, address, port, header, timeoutMs);
  } catch (err) {
    api.closeFd(fd);
    throw err;
  }
  return { fd, setup };
}

/** Why an owned data connection failed, in words; a port that does not answer is usually a firewall. */
export function ownedDialFailure(host: string, port: number, err: NodeJS.ErrnoException): string {
  const what = err.message || err.code || 'failed';
  if (err.code === 'ETIMEDOUT' || /timed out|refused/i.test(what)) {
    return (
      `cannot reach ${host}:${port} for data (${what}); the control connection got through, so a firewall on the partner may allow ` +
      'that one port only: allow Longhaul itself (a program rule covers every port it uses)'
    );
  }
  return what;
}

// Lives with the other address helpers; re-exported for the engine modules that import it from here.
