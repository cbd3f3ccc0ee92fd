/**
 * Linux: receive autotuning up to the third value of net.ipv4.tcp_rmem (send:
 * tcp_wmem), an application's own SO_RCVBUF / SO_SNDBUF capped by
 * net.core.rmem_max / wmem_max, window scaling by net.ipv4.tcp_window_scaling.
 * Linux keeps part of each buffer for its own bookkeeping and advertises about
 * half of it, so a window of W needs a buffer of about 2 × W (what Longhaul's
 * --window sets: docs/results.md).
 */
import { neededBytes, valueFor, type AdviceLine, type AdviceNeed, type OsRules } from './os-rules.js';

/** Buffer bytes per window byte. */
const BUFFER_PER_WINDOW = 2;

/** The third (maximum) value of a `min default max` triple, or null. */
function maxOf(triple: string | null): number | null {
  const v = triple?.trim().split(/\s+/).map(Number);
  const max = v?.length === 3 ? v[2] : undefined;
  return max !== undefined && v?.every(Number.isFinite) ? max : null;
}

/** Whether a read value already meets the need (then the setting is not the limit and is left out). */
function enough(current: number | null, n: AdviceNeed, factor: number): boolean {
  return current !== null && n.windowBytes !== null && current >= factor * n.windowBytes;
}

function triple(key: 'net.ipv4.tcp_rmem' | 'net.ipv4.tcp_wmem', what: string, n: AdviceNeed): AdviceLine[] {
  const current = n.current(key);
  if (enough(maxOf(current), n, BUFFER_PER_WINDOW)) return [];
  const [lo, def] = current?.trim().split(/\s+/) ?? [];
  const command = `sudo sysctl -w ${key}="${lo ?? '<min>'} ${def ?? '<default>'} ${valueFor(n, BUFFER_PER_WINDOW)}"`;
  return [
    {
      command,
      setting: `${key} (third value: the most ${what} autotuning may use)`,
      currentValue: current,
      neededValue: `${neededBytes(n, BUFFER_PER_WINDOW)} as the third value (2 × the window: Linux advertises about half of its buffer)`,
      how: `${command}; to keep it, the same line in /etc/sysctl.d/90-longhaul.conf`,
      why: `Applications that leave the buffers to the OS (most do) get at most this; a smaller maximum caps the window below what the path needs.`,
    },
  ];
}

function cap(key: 'net.core.rmem_max' | 'net.core.wmem_max', opt: string, n: AdviceNeed): AdviceLine[] {
  const current = n.current(key);
  const value = current === null ? null : Number(current.trim());
  if (enough(value, n, BUFFER_PER_WINDOW)) return [];
  return [
    {
      setting: `${key} (the most an application may set with ${opt})`,
      currentValue: current,
      command: `sudo sysctl -w ${key}=${valueFor(n, BUFFER_PER_WINDOW)}`,
      neededValue: `${neededBytes(n, BUFFER_PER_WINDOW)} (an application asking for the window gets twice it, within this cap)`,
      how: `sudo sysctl -w ${key}=${valueFor(n, BUFFER_PER_WINDOW)}; to keep it, the same line in /etc/sysctl.d/90-longhaul.conf`,
      why: `Applications that set ${opt} themselves (Longhaul when given a TCP window, iperf3 -w, ttcp -b) are held to this cap.`,
    },
  ];
}

function scaling(n: AdviceNeed): AdviceLine[] {
  const current = n.current('net.ipv4.tcp_window_scaling');
  if (current?.trim() === '1') return [];
  return [
    {
      setting: 'net.ipv4.tcp_window_scaling',
      currentValue: current,
      neededValue: '1 (on)',
      how: 'sudo sysctl -w net.ipv4.tcp_window_scaling=1 (new connections only)',
      command: 'sudo sysctl -w net.ipv4.tcp_window_scaling=1',
      why: 'Without window scaling (RFC 7323) no window above 65,535 bytes can be advertised.',
    },
  ];
}

function mss(n: AdviceNeed): AdviceLine[] {
  return [
    {
      setting: 'the interface MTU (ip link) and any advmss on the route (ip route)',
      currentValue: null,
      neededValue: `an MTU that gives an MSS of about ${n.pathMssBytes.toLocaleString('en-US')} bytes (MTU 1,500 on Ethernet)`,
      how: 'ip link show; ip route show; sudo ip link set dev <interface> mtu 1500',
      why: 'Each segment carries the same headers and costs the same per-packet work: small segments waste both.',
    },
  ];
}

export const LINUX_RULES: OsRules = {
  'receive-window': (n) => [...triple('net.ipv4.tcp_rmem', 'receive', n), ...cap('net.core.rmem_max', 'SO_RCVBUF', n)],
  'send-buffer': (n) => [...triple('net.ipv4.tcp_wmem', 'send', n), ...cap('net.core.wmem_max', 'SO_SNDBUF', n)],
  'window-scaling': scaling,
  mss,
};
