/**
 * The IPC between a forked `longhaul proxy` (electron/cli/commands/proxy.ts)
 * and the process that started it (electron/engine/session/proxy-process.ts): one
 * definition for both sides.
 */
import type { EmulatorWatchInfo, UdpRelayDirectionInfo } from '../contract/link-info.js';
import type { LossStats } from './stages/loss.js';

/** What a parent process may send to a forked proxy. */
export type ToProxyProcess =
  | { type: 'bypass'; on: boolean }
  | { type: 'configure'; link: unknown }
  /** Send the link's figures (loss counters, the emulator's own) now, changed or not. */
  | { type: 'report-stats' }
  /** Carry connections to another port of the target through the same link (LinkProxy.forward), or relay its UDP datagrams (forwardUdp). */
  | { type: 'forward'; targetPort: number; protocol?: 'udp' }
  | { type: 'close' };
/** What a forked proxy reports. `atNs` is process.hrtime.bigint() as a string (one monotonic clock for the machine). */
export type FromProxyProcess =
  | { type: 'listening'; port: number; address: string }
  /** Answer to `forward`: the local port for `targetPort`, or why there is none. */
  | { type: 'forwarding'; targetPort: number; protocol?: 'udp'; port: number | null; error: string | null }
  | { type: 'bypass'; bypass: boolean; atNs: string }
  | { type: 'connection-error'; code: string; message: string }
  /** The loss model's counters and the emulator's watch on itself, sent within STATS_REPORT_MS of a change and once more on close. */
  | {
      type: 'link-stats';
      loss: { up: LossStats | null; down: LossStats | null };
      emulator: EmulatorWatchInfo;
      /** A UDP run's datagrams through the relays; null when none was relayed. */
      udp: { up: UdpRelayDirectionInfo | null; down: UdpRelayDirectionInfo | null } | null;
    };
