/**
 * Windows Vista and later: the receive window is autotuned, bounded by the
 * "Receive Window Auto-Tuning Level" (`netsh interface tcp show global`), whose
 * levels allow window scale shifts of 0 (disabled: 65,535 bytes), 2
 * (highlyrestricted), 4 (restricted), 8 (normal) and 14 (experimental). An
 * application that sets SO_RCVBUF / SO_SNDBUF itself turns autotuning off for
 * that socket and gets exactly what it set. The level is read with netsh on
 * the PC itself (local-settings.ts); the per-application values are unknown.
 */
import { windowScaleShift } from '../../contract/path-math.js';
import { WINDOWS_AUTOTUNING_KEY } from './settings-keys.js';
import { neededBytes, type AdviceLine, type AdviceNeed, type OsRules } from './os-rules.js';

/** Autotuning levels and the largest window scale shift each allows, smallest first. */
const LEVELS: [level: string, maxShift: number][] = [
  ['disabled', 0],
  ['highlyrestricted', 2],
  ['restricted', 4],
  ['normal', 8],
  ['experimental', 14],
];

/** The least autotuning level that lets a window of this size be advertised. */
export function autotuningLevelFor(windowBytes: number): string {
  const shift = windowScaleShift(windowBytes);
  // normal is Windows' default and the level Microsoft recommends: never advise below it.
  return LEVELS.find(([, max]) => max >= shift && max >= 8)?.[0] ?? 'experimental';
}

function autotuning(n: AdviceNeed): AdviceLine {
  const level = n.windowBytes !== null ? autotuningLevelFor(n.windowBytes) : 'normal';
  return {
    setting: 'Receive Window Auto-Tuning Level (netsh interface tcp show global)',
    currentValue: n.current(WINDOWS_AUTOTUNING_KEY),
    neededValue: `${level}${n.windowBytes !== null ? ` (lets the window grow to ${neededBytes(n).replace('at least ', '')})` : ''}; not disabled or highlyrestricted`,
    how: `netsh interface tcp show global; as administrator: netsh interface tcp set global autotuninglevel=${level}`,
    command: `netsh interface tcp set global autotuninglevel=${level}`,
    why: 'Applications that leave the buffers to Windows (most do) get a window autotuning sizes within this level.',
  };
}

function perApplication(n: AdviceNeed, opt: 'SO_RCVBUF' | 'SO_SNDBUF'): AdviceLine {
  return {
    setting: `the application's own ${opt} (per socket, where the application sets one)`,
    currentValue: null,
    neededValue: `${neededBytes(n)}, or not set at all so autotuning applies`,
    how: `the application's buffer option (Longhaul: its TCP window per stream end; iperf3: -w; ttcp: -b); Windows does not cap it`,
    why: `An application that sets ${opt} turns autotuning off for that socket: the window is then exactly what it set.`,
  };
}

export const WINDOWS_RULES: OsRules = {
  'receive-window': (n) => [autotuning(n), perApplication(n, 'SO_RCVBUF')],
  'send-buffer': (n) => [perApplication(n, 'SO_SNDBUF')],
  // On these versions window scaling follows the autotuning level (disabled means no scaling).
  'window-scaling': (n) => [autotuning(n)],
  mss: (n) => [
    {
      setting: 'the interface MTU (netsh interface ipv4 show subinterfaces)',
      currentValue: null,
      neededValue: `an MTU that gives an MSS of about ${n.pathMssBytes.toLocaleString('en-US')} bytes (MTU 1,500 on Ethernet)`,
      how: 'as administrator: netsh interface ipv4 set subinterface "<interface>" mtu=1500 store=persistent',
      why: 'Each segment carries the same headers and costs the same per-packet work: small segments waste both.',
    },
  ],
};
