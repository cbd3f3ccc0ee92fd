/**
 * "Can I reach the partner?" before a run: one TCP connect to the responder's
 * port with a deadline, and a verdict a user can act on. Only the OS's answer
 * is reported; "firewall suspected" is said when the OS reports a rejection
 * by a filter (host/net unreachable, permission denied), never guessed.
 */
import net from 'node:net';
import type { ConnectionCheck, ConnectionVerdict } from '../contract/api.js';
import { partnerFirewallAdvice } from './firewall-guidance.js';

export const DEFAULT_CHECK_TIMEOUT_MS = 3000;

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
  refused: (h, p) => `${h} answered but nothing listens on port ${p}: start "longhaul listen --port ${p}" (or "Wait for a partner") on that PC.`,
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

/** Try one TCP connection to host:port and close it at once. Never rejects. */
export function checkConnection(host: string, port: number, timeoutMs = DEFAULT_CHECK_TIMEOUT_MS): Promise<ConnectionCheck> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let done = false;
    const finish = (verdict: ConnectionVerdict, errno?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const elapsedMs = Math.round(performance.now() - t0);
      const detail = detailFor(verdict, host, port, verdict === 'timed-out' ? timeoutMs : elapsedMs, errno);
      resolve({ verdict, host, port, elapsedMs, detail });
    };
    const timer = setTimeout(() => finish('timed-out'), timeoutMs);
    socket.once('connect', () => finish('reachable'));
    socket.once('error', (err: NodeJS.ErrnoException) => finish(verdictOf(err.code), err.code ?? err.message));
  });
}
