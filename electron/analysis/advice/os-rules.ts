/**
 * What every per-OS advice file provides: for each topic, the settings to name
 * for a window (or segment size) the path needs. Pure: the current values come
 * in through `current`, which answers only for this PC's own readable settings.
 */
import type { Advice } from '../../contract/advice.js';
import { MAX_SCALED_WINDOW, splitWindow } from '../../contract/path-math.js';

/** One setting's advice before it is tied to a PC and a direction. */
export type AdviceLine = Pick<Advice, 'setting' | 'currentValue' | 'neededValue' | 'how' | 'why' | 'command' | 'runFlags' | 'longhaulCommand' | 'control'>;

/** What the path needs, as the rules see it. */
export interface AdviceNeed {
  /** Window per stream that fills the path, bytes; null when the path's rate is unknown. */
  windowBytes: number | null;
  /** Window per stream that each Mbit/s needs at the measured RTT, bytes (used when `windowBytes` is null). */
  bytesPerMbit: number;
  /** The MSS the path allows, bytes (1,448 on a 1,500-byte MTU with timestamps). */
  pathMssBytes: number;
  /** This PC's setting as read (e.g. `net.ipv4.tcp_rmem` → `4096 131072 6291456`); null: not readable / the other PC. */
  current: (key: string) => string | null;
}

export type OsRules = Partial<Record<'receive-window' | 'send-buffer' | 'window-scaling' | 'mss', (n: AdviceNeed) => AdviceLine[]>>;

/** `650,000 bytes`, or the per-Mbit/s figure when the rate is unknown. */
export function neededBytes(n: AdviceNeed, factor = 1): string {
  if (n.windowBytes !== null && n.windowBytes > MAX_SCALED_WINDOW) {
    const split = splitWindow(n.windowBytes, 1);
    return (
      `at least ${(factor * split.windowBytes).toLocaleString('en-US')} bytes, with ${split.streams} streams for each one today ` +
      `(one stream's window cannot exceed RFC 7323's ${MAX_SCALED_WINDOW.toLocaleString('en-US')} bytes)`
    );
  }
  return n.windowBytes !== null
    ? `at least ${(factor * n.windowBytes).toLocaleString('en-US')} bytes`
    : `unknown until the path's rate is known: ${(factor * n.bytesPerMbit).toLocaleString('en-US')} bytes per Mbit/s wanted at this RTT`;
}

/** The number a command should set: the needed window × factor, or a placeholder when the rate is unknown. */
export function valueFor(n: AdviceNeed, factor = 1): string {
  return n.windowBytes !== null ? String(factor * splitWindow(n.windowBytes, 1).windowBytes) : '<bytes>';
}
