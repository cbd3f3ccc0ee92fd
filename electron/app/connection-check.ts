/**
 * "Can I reach the partner?" before a run: one TCP connect to the responder's
 * port with a deadline, and a verdict a user can act on. Only the OS's answer
 * is reported; "firewall suspected" is said when the OS reports a rejection
 * by a filter (host/net unreachable, permission denied), never guessed.
 * For a Longhaul partner the check also says whether this PC is paired with it.
 */
import net from 'node:net';
import type { ConnectionCheck, ConnectionVerdict } from '../contract/api.js';
import type { ControllerSecurity } from '../security/controller-security.js';
import { partnerFirewallAdvice } from './firewall-guidance.js';
import { probePairing } from './pairing-probe.js';

const DEFAULT_CHECK_TIMEOUT_MS = 3000;

/** The verdict for an OS error code from `connect()`. Pure, so it is tested for every code. */
export function verdictOf(errno: string | undefined): ConnectionVerdict {
  switch (errno) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ETIMEDOUT':
      return 'timed-out';
    case 'EHOSTUNREACH': // ICMP host-prohibited / admin-filtered arrives as this
    case 'ENETUNREACH':
    case 'EACCES':
    case 'EPERM': // a local firewall rule rejected the packet
    case 'EHOSTDOWN':
      return 'firewall-suspected';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return 'unknown-host';
    default:
      return 'firewall-suspected';
  }
}

const DETAIL: Record<ConnectionVerdict, (host: string, port: number, ms: number) => string> = {
  reachable: (h, p, ms) => `${h}:${p} accepted a TCP connection in ${ms} ms.`,
  refused: (h, p) =>
    `${h} answered but nothing listens on port ${p}: on that PC choose "Wait for a partner" (or, in a terminal, run "longhaul listen --port ${p}").`,
  'timed-out': (h, p, ms) =>
    `no answer from ${h}:${p} within ${ms} ms: check the address, that the PC is on, and that a firewall lets TCP port ${p} in (a firewall that drops packets looks exactly like this).`,
  'firewall-suspected': (h, p) =>
    `the connection to ${h}:${p} was rejected on the way (host or network unreachable, or a filter): a firewall is the usual cause; allow TCP port ${p} on the responder.`,
  'unknown-host': (h) => `"${h}" is not a known host name: type the partner's IP address as shown on its waiting screen.`,
};

/**
 * The verdict in words. A silent or filtered partner gets, on further lines, what to allow
 * on it for each OS (its OS is unknown from here).
 */
export function detailFor(verdict: ConnectionVerdict, host: string, port: number, ms: number, errno?: string): string {
  const advice = verdict === 'timed-out' || verdict === 'firewall-suspected' ? `\n${partnerFirewallAdvice(port)}` : '';
  return DETAIL[verdict](host, port, ms) + (errno ? ` (the OS said ${errno})` : '') + advice;
}

/** One TCP connect with a deadline: the verdict, and the connected socket when reachable (the caller owns it). */
function connectOnce(
  host: string,
  port: number,
  timeoutMs: number,
): Promise<{ verdict: ConnectionVerdict; errno?: string; elapsedMs: number; socket: net.Socket | null }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let done = false;
    const finish = (verdict: ConnectionVerdict, errno?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (verdict !== 'reachable') socket.destroy();
      resolve({ verdict, errno, elapsedMs: Math.round(performance.now() - t0), socket: verdict === 'reachable' ? socket : null });
    };
    const timer = setTimeout(() => finish('timed-out'), timeoutMs);
    socket.once('connect', () => finish('reachable'));
    socket.once('error', (err: NodeJS.ErrnoException) => finish(verdictOf(err.code), err.code ?? err.message));
  });
}

/**
 * Try one TCP connection to host:port. With `security` (a Longhaul partner), a reachable
 * partner is then asked who it is (pairing-probe.ts: a TLS handshake, no request sent) and
 * compared with this PC's peers; without it (an iperf3 partner) the socket is closed at once.
 * Never rejects; bounded by `timeoutMs` plus the probe's own deadline.
 */
export async function checkConnection(
  host: string,
  port: number,
  timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
  security: ControllerSecurity | null = null,
): Promise<ConnectionCheck> {
  const c = await connectOnce(host, port, timeoutMs);
  const detail = detailFor(c.verdict, host, port, c.verdict === 'timed-out' ? timeoutMs : c.elapsedMs, c.errno);
  const base = { verdict: c.verdict, host, port, elapsedMs: c.elapsedMs, detail, pairing: null };
  if (!c.socket) return base;
  if (!security) {
    c.socket.destroy();
    return base;
  }
  const probe = await probePairing(c.socket, `${host}:${port}`, security);
  return { ...base, detail: probe.reason ? `${detail} ${probe.reason}` : detail, pairing: probe.pairing };
}
