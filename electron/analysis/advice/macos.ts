/**
 * macOS: receive autotuning up to net.inet.tcp.autorcvbufmax (send:
 * autosndbufmax), every socket buffer capped by kern.ipc.maxsockbuf, window
 * scaling by net.inet.tcp.rfc1323. macOS advertises about its whole receive
 * buffer, so a window of W needs a buffer of W. Current values come from
 * `sysctl` on the PC itself (local-settings.ts).
 */
import { neededBytes, valueFor, type AdviceLine, type AdviceNeed, type OsRules } from './os-rules.js';

function sysctl(key: string, n: AdviceNeed, why: string): AdviceLine {
  return {
    setting: key,
    currentValue: n.current(key),
    neededValue: neededBytes(n),
    how: `sysctl ${key}; sudo sysctl -w ${key}=${valueFor(n)} (until restart)`,
    command: `sudo sysctl -w ${key}=${valueFor(n)}`,
    why,
  };
}

const MAXSOCKBUF = 'Every socket buffer, autotuned or set by the application, is capped at this.';

export const MACOS_RULES: OsRules = {
  'receive-window': (n) => [
    sysctl('net.inet.tcp.autorcvbufmax', n, 'Receive autotuning grows the buffer (and so the window) up to this.'),
    sysctl('kern.ipc.maxsockbuf', n, MAXSOCKBUF),
  ],
  'send-buffer': (n) => [sysctl('net.inet.tcp.autosndbufmax', n, 'Send autotuning grows the buffer up to this.'), sysctl('kern.ipc.maxsockbuf', n, MAXSOCKBUF)],
  'window-scaling': (n) => [
    {
      setting: 'net.inet.tcp.rfc1323',
      currentValue: n.current('net.inet.tcp.rfc1323'),
      neededValue: '1 (on)',
      how: 'sudo sysctl -w net.inet.tcp.rfc1323=1',
      why: 'Without window scaling (RFC 7323) no window above 65,535 bytes can be advertised.',
    },
  ],
  mss: (n) => [
    {
      setting: 'the interface MTU (networksetup -getMTU <device>)',
      currentValue: null,
      neededValue: `an MTU that gives an MSS of about ${n.pathMssBytes.toLocaleString('en-US')} bytes (1,500 on Ethernet)`,
      how: 'sudo networksetup -setMTU <device> 1500',
      why: 'Each segment carries the same headers: small segments waste the link.',
    },
  ],
};
