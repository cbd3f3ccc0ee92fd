/**
 * The link emulator's part of a `longhaul.result/1` (docs/results.md, "link"): the settings a
 * run's delay proxy started with, its stage chains, its modelled losses and its watch on itself.
 */

/** One stage of an emulated link, as configured: `{ type: 'delay', delayMs: 650, … }`. */
interface LinkStageInfo {
  type: string;
  [field: string]: unknown;
}

/** The link settings a run's proxy started with (all units in the names). */
export interface LinkSettingsInfo {
  /** One-way delay each direction, ms (round trip = 2 ×). */
  delayMs: number;
  jitterMs: number;
  /** Rate each way, bit/s; null = not limited. */
  rateBitsPerSec: number | null;
  /** Emulated TCP window (bytes in flight); null = not emulated. */
  windowBytes: number | null;
  slowstart: boolean;
  /** Modelled loss per segment, 0-0.5 (the segment and those behind it arrive one RTT late and the in-flight cap halves; not a dropped packet). */
  lossRatio: number;
  /** `random` (also when absent) or `periodic`: every round(1 / lossRatio)-th segment. */
  lossPattern?: 'random' | 'periodic';
  mssBytes: number;
}

/** One direction's modelled losses (electron/proxy/stages/loss.ts). */
export interface ModelledLossInfo {
  /** Segments of `mssBytes` that passed the loss stage. */
  segments: number;
  /** Chunks held one RTT as lost (several lost segments in one chunk count once). */
  losses: number;
  /** Halvings of the in-flight cap: recovery episodes (the losses of one round trip halve once). */
  halvings: number;
}

/** One direction of the link emulator's watch on itself (electron/proxy/emulator-watch.ts). */
export interface EmulatorDirectionInfo {
  /** Bytes the relay released toward the destination. */
  releasedBytes: number;
  /** From the first release to the last, s. */
  activeSeconds: number;
  /** Bytes released more than `lateMs` after the model scheduled them (waits for a receiver that stopped reading excluded). */
  lateBytes: number;
  /** The latest any release was against its schedule, ms (receiver waits excluded). */
  maxLateMs: number;
  /** The busiest connection's time with its relay reader behind the sender (more waiting than one full read took while the model had room) while the emulated link had nothing left to carry, s. */
  behindSeconds: number;
}

/** The link emulator's own figures: did it keep its schedule on this PC? */
export interface EmulatorWatchInfo {
  /** `native`: the addon's relay thread moved the bytes; `js`: Node's sockets on the proxy's event loop. */
  relay: 'native' | 'js';
  /** Why the relay is `js` (null when native). */
  relayReason: string | null;
  /** A release later than this after its schedule counts as late, ms. */
  lateMs: number;
  /** CPU the proxy used (user + system, all its threads) from the link's start to this record, s; null where not measured. */
  cpuSeconds: number | null;
  /** Logical CPUs of this PC (os.availableParallelism()); null where not known. */
  cores: number | null;
  /** Time the proxy's process did not run while connections were open (a 5 ms tick later than `stallMs`: stopped, or its CPU went elsewhere), s. Absent in older results. */
  stalledSeconds?: number;
  stallMs?: number;
  up: EmulatorDirectionInfo | null;
  down: EmulatorDirectionInfo | null;
}

/** One direction of the UDP relays (electron/proxy/udp/), all of a run's streams together: what the emulated link did to the datagrams. */
export interface UdpRelayDirectionInfo {
  /** Datagrams that reached the relay. */
  datagrams: number;
  /** Datagrams it passed on to the far end. */
  delivered: number;
  /** Dropped by the link's loss stage (a real drop: a datagram is not retransmitted). */
  lostOnLink: number;
  /** Dropped because the link's queue in front of its rate was full (tail drop). */
  queueDropped: number;
  /** Lost by the emulator itself (its sockets' receive buffers full, or beyond what it may hold): its limit, not the link's; null where the OS does not count. */
  emulatorDropped: number | null;
  /** Sends the OS refused (the far end's port closed: ICMP port unreachable). */
  sendErrors: number;
}

/** The link-emulator proxy's part of a result (written by the loopback command). */
export interface LinkInfo {
  emulator: 'longhaul-proxy';
  /** The preset the settings came from (then possibly edited), or null. */
  preset: string | null;
  /** Where the proxy forwarded to, `host:port` as dialled (`[v6]:port`): the real partner. Absent in older results and where not known. */
  target?: string;
  /** Settings in force at the start; null when a raw stage chain was given. */
  settings: LinkSettingsInfo | null;
  /** Stage chains per direction: up = controller → responder, down = responder → controller. */
  chains: { up: LinkStageInfo[]; down: LinkStageInfo[] };
  /** min(rate × payload share (mss / (mss + 66 header bytes) ≈ 0.956), window / RTT) for one stream, bit/s of payload; null when nothing in the settings limits it. */
  modelCeilingBitsPerSec: number | null;
  /** Every bypass switch in order; `t` is seconds since the run's start (controller clock). */
  bypassToggles: { t: number; bypass: boolean }[];
  /**
   * What the loss model did, per direction, all connections (control included) together, as of
   * the proxy's last report (it reports within 100 ms of a change). Absent when no direction has
   * a loss stage; a direction without one is null.
   */
  modelledLoss?: { up: ModelledLossInfo | null; down: ModelledLossInfo | null };
  /** Whether the emulator kept its own schedule (absent in results before it watched itself). */
  emulatorWatch?: EmulatorWatchInfo;
  /** A UDP run's datagrams through the relays (up = controller → responder); absent for TCP runs and older results. */
  udpRelay?: { up: UdpRelayDirectionInfo | null; down: UdpRelayDirectionInfo | null };
  /** What a user-space relay cannot emulate, said plainly. */
  note: string;
}
