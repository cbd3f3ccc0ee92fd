/**
 * The app contract: every channel between the UI and the engine host, with its
 * request, response and event types. ONE table, from which everything else is
 * derived, so a channel cannot drift out of sync:
 *
 *   INVOKES / EVENTS ──► LonghaulApi (type of `window.longhaul`)
 *                   ├──► electron/preload.ts     (ipcRenderer.invoke / on)
 *                   ├──► electron/main.ts        (ipcMain.handle → AppBackend)
 *                   ├──► electron/ui-server/*    (the same calls over a WebSocket)
 *                   └──► renderer/src/bridge/*   (browser-mode client)
 *
 * Pure types plus two constant tables, no Node imports: the renderer shares it.
 * Errors cross as `{ code: 'LH_ERR_*', message }`; the UI matches on `code`.
 */
import type { LonghaulErrorCode } from './error-codes.js';
import type { SessionPhase } from './session-phases.js';
import type { LonghaulResult, ResultParams, Side } from './result.js';
import type { LinkSettingsInfo } from './link-info.js';
import type { HistoryFilter, HistoryListing, HistoryRetention, PruneSummary, RetentionView } from './history.js';
import type { GroupEnded, GroupExportFormat, GroupListing, StartGroupRunRequest } from './group-app.js';
import type { LonghaulGroupResult } from './group.js';
import type { SweepPlan } from './sweep.js';
import type { MetricsSetting, SaveScheduleRequest, ScheduleListing, ScheduleNotice } from './schedule-app.js';
import type { SweepEntry, SweepExportFormat, SweepProgressEvent, SweepView } from './sweep-app.js';
import type { RampEntry, RampExportFormat, RampView, StartRampRequest } from './udp-ramp-app.js';
import type { ConnectionCheck, ResponderStatus, Iperf3ServerStatus, DiscoveredResponder, PairedPeer, PairedPeerInfo } from './partners.js';

/** The pairing and waiting types live in partners.ts; every channel's types are importable from here. */
export type * from './partners.js';

/** Result export formats: `longhaul report --format` and the app's export share this one list. */
export type ExportFormat = 'json' | 'csv' | 'console' | 'ttcp' | 'html';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv', 'console', 'ttcp', 'html'];

/**
 * What this PC can do beyond what every build does: the figures that need the native socket
 * addon. The UI says why when they are false instead of faking them.
 */
export interface Features {
  /** Per-stream RTT and cwnd samples (native addon). */
  rttCwnd: boolean;
  /** Applying a requested TCP window before the handshake (native addon). */
  windowApplied: boolean;
  /** Why `rttCwnd` and `windowApplied` are false (the native addon's load error), or null. */
  nativeReason: string | null;
}

export interface SystemInfo {
  hostname: string;
  /** Non-internal addresses of this PC, to read off to the other laptop. */
  addresses: string[];
  software: string;
  mode: 'electron' | 'browser';
  /** Where result files (history) are stored. */
  dataDir: string;
  defaultPort: number;
  features: Features;
}

/** Run parameters as the engine takes them (bytes, seconds, bit/s): the result's own `params`. */
export type UiRunParams = ResultParams;

/**
 * How the traffic goes: straight to the partner, or through the local delay
 * proxy (link emulator), which runs on this PC and forwards to the partner.
 * `settings` are the emulator's own (units in the names, see result.ts);
 * `preset` names the preset they started from, null when typed from scratch.
 */
export type LinkChoice = { kind: 'direct' } | { kind: 'proxy'; preset: string | null; settings: LinkSettingsInfo };

/** A link preset as the Link screen lists it: every number shown, nothing behind the name. */
export interface UiLinkPreset {
  /** What `longhaul loopback --link NAME` takes. */
  name: string;
  label: string;
  /** Where the numbers come from. */
  about: string;
  settings: LinkSettingsInfo;
}

/** What the link emulator carried on this PC when last measured (electron/app/emulator-capacity.ts). */
export interface EmulatorCapacityInfo {
  /** Payload bit/s the emulator carried with no rate limit in the way. */
  bitsPerSecond: number;
  /** Which byte mover it used: the addon's relay thread or JavaScript. */
  relay: 'native' | 'js';
  cores: number | null;
  /** ISO 8601. */
  measuredAt: string;
  /** How it was measured, for humans. */
  probe: string;
}

/** The proxy's bypass switch during a run, as the proxy confirmed it. */
export interface BypassState {
  runId: string;
  bypass: boolean;
  /** Every switch so far; `t` is seconds since the run's start (controller clock), as in `result.link`. */
  toggles: { t: number; bypass: boolean }[];
}

/** A report rendered as text (for the Results screen's panes and Copy; exports save the same text). */
interface ReportText {
  fileName: string;
  mimeType: string;
  text: string;
}

/**
 * What listens at the partner's address: a paired Longhaul responder, or an `iperf3 -s`
 * (TCP, no pairing: an iperf3 server has none; docs/iperf3.md).
 */
export type PartnerKind = 'longhaul' | 'iperf3';

/** A Longhaul responder's port when none is given (`longhaul listen`, a partner typed without `:port`). */
export const DEFAULT_PORT = 5211;

/** iperf3's own default port (`iperf3 -s`, and the Waiting screen's iperf3 answerer). */
export const IPERF3_DEFAULT_PORT = 5201;

interface StartRunRequest {
  host: string;
  port: number;
  params: UiRunParams;
  /** An iperf3 partner takes `direct` only: the link emulator is for Longhaul partners. */
  link: LinkChoice;
  /** Absent: `longhaul`. */
  partner?: PartnerKind;
  /** The path's rate as the user knows it (`--path-rate`), bit/s, 0 < x ≤ MAX_PATH_RATE_BITS_PER_SEC: the verdict, advice and what-if fill it. Absent: not given. */
  pathRateBitsPerSec?: number;
  /** The path's length as the user knows it (the Test screen's Distance), metres, 0 < x ≤ 4e7 (once round the Earth): recorded in the result for the bit·m/s metric. Absent: not given. */
  distanceMeters?: number;
  /** Measure the path after the run (the CLI's --capacity; engine/session/capacity-run.ts): the result gains `capacity`. Absent: not measured. */
  capacity?: boolean;
}

/**
 * One sending stream end's latest TCP_INFO at a tick (native addon only).
 * null = this OS does not report it.
 */
export interface LiveTcp {
  id: number;
  /** Smoothed round-trip time, microseconds. */
  rttUs: number | null;
  /** Lowest RTT the kernel saw on this connection (tcp_info min_rtt), microseconds: the path idle. Absent or null: not reported. */
  minRttUs?: number | null;
  /** Congestion window, bytes. */
  sndCwndBytes: number | null;
  /** The peer's advertised receive window, bytes. */
  sndWndBytes: number | null;
  /** Segments retransmitted since the connection began. */
  totalRetransSegments: number | null;
  /** 'estimated': `totalRetransSegments` is bytes retransmitted ÷ MSS (Windows counts bytes, not segments). Absent: counted, or unknown. */
  retransSource?: 'estimated';
  /** Bytes retransmitted behind an estimate, when known (sent with an estimate only). */
  bytesRetrans?: number | null;
}

/** Cumulative counters of one side at one tick: [streamId, bytes, completions]. */
export interface LiveSample {
  runId: string;
  side: Side;
  index: number;
  /** Seconds since that side's start. */
  t: number;
  /** The first sample of a side that read bytes before its clock started: when (s, < 0) the first byte came; its interval begins there. */
  from?: number;
  final: boolean;
  streams: [number, number, number][];
  /** TCP_INFO of the streams this side sends; absent where that side has no native addon. */
  tcp?: LiveTcp[];
  /** In a group run: which peer's run (0-based index into the request's `peers`); absent for a single run. */
  peer?: number;
  /** A UDP run: this side's receiving streams' cumulative counts, [stream id, datagrams arrived, datagrams lost]. */
  udp?: [number, number, number][];
  /**
   * The control channel's round trip as the controller's pings measured it, ms: the latest before the data flowed
   * (`idleMs`) and the latest under load (`nowMs`); null where none was answered yet. On the controller's own
   * samples of a single run, where the partner answers pings; absent elsewhere.
   */
  control?: ControlRttNow;
}

/** LiveSample.control: the latest control-channel round trips, ms. */
export interface ControlRttNow {
  idleMs: number | null;
  nowMs: number | null;
}

export interface RunEnded {
  runId: string;
  result: LonghaulResult;
  /** Where the result file was saved for History, or null with `saveError`. */
  savedPath: string | null;
  saveError: string | null;
}

/**
 * A run that ended before any byte moved (partner not paired, refused, unknown host, TLS, parameters
 * refused): not a result. Nothing is stored in History; the UI goes back to the step that can fix it.
 */
/**
 * A single run as the host knows it by its id: still `running` (what the Run screen was given at its start, and
 * its phase), `ended` with the id of its result (History's `loadResult`), or `unknown` (it failed before any byte
 * moved, or ended long ago, or another host started it): then there is nothing to show.
 */
export type RunState =
  | { state: 'running'; params: UiRunParams; link: LinkChoice; partner: PartnerKind; phase: RunPhase | null; distanceMeters: number | null }
  | { state: 'ended'; resultId: string }
  | { state: 'unknown' };

export interface RunFailed {
  runId: string;
  /** The first error the run met: the UI matches on `code`. */
  error: { code: LonghaulErrorCode; message: string };
  /** The last phase the run reached before it failed. */
  phase: RunPhase;
}

/** The engine's session phases, and `capacity` while Longhaul's own tuned run measures the path after the user's (engine/session/capacity-run.ts). */
export type RunPhase = SessionPhase | 'capacity';

/** Outcome of an export: saved by the OS dialog (Electron), or a download (browser mode). */
export type ExportOutcome = { kind: 'saved'; path: string } | { kind: 'cancelled' } | { kind: 'download'; fileName: string; mimeType: string; text: string };

/** The request/response channels: action name → [channel, request, response]. */
export interface Invokes {
  systemInfo: { channel: 'system:info'; req: null; res: SystemInfo };
  /** TCP reachability and, for a Longhaul partner (`partner` absent or 'longhaul'), whether this PC is paired with it. */
  checkPeer: { channel: 'peer:check'; req: { host: string; port: number; partner?: PartnerKind }; res: ConnectionCheck };
  startRun: { channel: 'run:start'; req: StartRunRequest; res: { runId: string } };
  stopRun: { channel: 'run:stop'; req: { runId: string }; res: { stopping: boolean } };
  /** Where a run started from this app is now: what a reloaded page needs to watch it again, or open its result. */
  runState: { channel: 'run:state'; req: { runId: string }; res: RunState };
  startResponder: { channel: 'responder:start'; req: { port: number; bind: string | null }; res: ResponderStatus };
  stopResponder: { channel: 'responder:stop'; req: null; res: ResponderStatus };
  /** The responder as it is now (a page that loads while it listens learns it here; changes come on `onResponder`). */
  responderStatus: { channel: 'responder:status-now'; req: null; res: ResponderStatus };
  /** Also answer `iperf3 -c` clients on `port` (TCP, no pairing); its runs come on the responder's sample and end channels. */
  startIperf3Server: { channel: 'iperf3:start'; req: { port: number }; res: Iperf3ServerStatus };
  stopIperf3Server: { channel: 'iperf3:stop'; req: null; res: Iperf3ServerStatus };
  /** The stored runs a filter picks, newest first (null: every run). */
  listHistory: { channel: 'history:list'; req: HistoryFilter | null; res: HistoryListing };
  /** Every run the filter picks (not only those listed) as one CSV, one row per run and direction (docs/schedules.md). */
  exportHistory: { channel: 'history:export'; req: HistoryFilter | null; res: ExportOutcome };
  /** The retention rule in force, and what it last removed. */
  historyRetention: { channel: 'history:retention'; req: null; res: RetentionView };
  /** Keep a new retention rule (the data folder's history-retention.json) and apply it at once. */
  setHistoryRetention: { channel: 'history:retention-set'; req: HistoryRetention; res: RetentionView };
  /** What a rule would remove now, removing nothing. */
  previewHistoryRetention: { channel: 'history:retention-preview'; req: HistoryRetention; res: PruneSummary };
  loadResult: { channel: 'history:load'; req: { id: string }; res: LonghaulResult };
  exportResult: { channel: 'export:save'; req: { id: string; format: ExportFormat }; res: ExportOutcome };
  reportText: { channel: 'report:text'; req: { id: string; format: ExportFormat }; res: ReportText };
  linkPresets: { channel: 'link:presets'; req: null; res: UiLinkPreset[] };
  /** What the link emulator can carry on this PC: the stored figure (`measure: false`, null when never measured) or a new 3 s probe. */
  emulatorCapacity: { channel: 'link:capacity'; req: { measure: boolean }; res: EmulatorCapacityInfo | null };
  setBypass: { channel: 'link:bypass'; req: { runId: string; bypass: boolean }; res: BypassState };
  /** Browse the LAN for responders for `seconds` (multicast is often blocked: an empty list is normal). */
  discoverResponders: { channel: 'pair:discover'; req: { seconds: number }; res: DiscoveredResponder[] };
  /** Pair with a responder using the code it shows (docs/security.md). */
  pairPeer: { channel: 'pair:pair'; req: { host: string; port: number; code: string }; res: PairedPeer };
  /** The PCs this one is paired with, most recently seen first. */
  listPeers: { channel: 'pair:list'; req: null; res: PairedPeerInfo[] };
  /** Forget a paired PC (it must be paired again with a new code); returns the list left. */
  forgetPeer: { channel: 'pair:forget'; req: { fingerprint: string }; res: PairedPeerInfo[] };
  /** Start a sweep (one at a time; a second start, or a start during a single run, is `LH_ERR_BUSY`). */
  sweepStart: { channel: 'sweep:start'; req: { plan: SweepPlan }; res: SweepView };
  /** Stop the sweep after the run in progress is cut short (its finished runs stay in the file). */
  sweepStop: { channel: 'sweep:stop'; req: { id: string }; res: { stopping: boolean } };
  /** Run only what an interrupted sweep still owes, into the same file. */
  sweepResume: { channel: 'sweep:resume'; req: { id: string }; res: SweepView };
  sweepGet: { channel: 'sweep:get'; req: { id: string }; res: SweepView };
  sweepExport: { channel: 'sweep:export'; req: { id: string; format: SweepExportFormat }; res: ExportOutcome };
  /** The stored sweeps, newest first, with the unfinished ones a Resume can pick up. */
  listSweeps: { channel: 'sweep:list'; req: null; res: SweepEntry[] };
  /** Start a UDP ramp (contract/udp-ramp-app.ts); one run of any kind at a time (`LH_ERR_BUSY`). */
  rampStart: { channel: 'ramp:start'; req: StartRampRequest; res: RampView };
  /** Stop the ramp after the step in progress is cut short (the steps run stay in its file). */
  rampStop: { channel: 'ramp:stop'; req: { id: string }; res: { stopping: boolean } };
  rampGet: { channel: 'ramp:get'; req: { id: string }; res: RampView };
  rampExport: { channel: 'ramp:export'; req: { id: string; format: RampExportFormat }; res: ExportOutcome };
  /** The stored ramps, newest first. */
  listRamps: { channel: 'ramp:list'; req: null; res: RampEntry[] };
  /** A multi-peer run (docs/multi-peer.md); one run of any kind at a time (`LH_ERR_BUSY`). Stop it with `stopRun`. */
  startGroupRun: { channel: 'group:start'; req: StartGroupRunRequest; res: { runId: string } };
  listGroups: { channel: 'group:list'; req: null; res: GroupListing };
  loadGroup: { channel: 'group:load'; req: { id: string }; res: LonghaulGroupResult };
  exportGroup: { channel: 'group:export'; req: { id: string; format: GroupExportFormat }; res: ExportOutcome };
  groupReportText: { channel: 'group:text'; req: { id: string; format: GroupExportFormat }; res: ReportText };
  /** This PC's kept schedules (docs/schedules.md): their plans, state, next round and last test per peer. */
  listSchedules: { channel: 'schedule:list'; req: null; res: ScheduleListing };
  /** Keep a schedule's plan (new, or an edit of `editing`); refused with LH_ERR_BAD_PLAN naming the field. */
  saveSchedule: { channel: 'schedule:save'; req: SaveScheduleRequest; res: ScheduleListing };
  pauseSchedule: { channel: 'schedule:pause'; req: { name: string; paused: boolean }; res: ScheduleListing };
  /** Delete a schedule's plan and state; its results stay in History. */
  deleteSchedule: { channel: 'schedule:delete'; req: { name: string }; res: ScheduleListing };
  /** Keep the app's /metrics setting (docs/schedules.md) and serve as it says while this app runs the schedules; `listing.metrics` says where, or why not. */
  setScheduleMetrics: { channel: 'schedule:metrics'; req: MetricsSetting; res: ScheduleListing };
}

/** The events main pushes: subscription name → [channel, payload]. */
export interface Events {
  /** `peer` and, once it said hello, its `hostname`: in a group run. */
  onPhase: { channel: 'run:phase'; payload: { runId: string; phase: RunPhase; peer?: number; hostname?: string } };
  onSample: { channel: 'run:sample'; payload: LiveSample };
  onRunEnd: { channel: 'run:end'; payload: RunEnded };
  /** Instead of `onRunEnd` when nothing moved: see `RunFailed`. */
  onRunFailed: { channel: 'run:failed'; payload: RunFailed };
  onResponder: { channel: 'responder:status'; payload: ResponderStatus };
  onResponderSample: { channel: 'responder:sample'; payload: LiveSample };
  onResponderEnd: { channel: 'responder:end'; payload: RunEnded };
  onIperf3Server: { channel: 'iperf3:status'; payload: Iperf3ServerStatus };
  onSweepProgress: { channel: 'sweep:progress'; payload: SweepProgressEvent };
  /** A ramp's step began or ended, or the ramp ended: the whole view (a ramp has at most 24 steps). */
  onRampProgress: { channel: 'ramp:progress'; payload: RampView };
  onGroupEnd: { channel: 'group:end'; payload: GroupEnded };
  /** The schedules changed (a test began or ended, a plan was kept, paused, broken by hand); `notice`: a failed test or a changed verdict to tell the user. */
  onSchedules: { channel: 'schedule:update'; payload: { listing: ScheduleListing; notice: ScheduleNotice | null } };
}

export type InvokeName = keyof Invokes;
export type EventName = keyof Events;

/** Runtime tables (the types above checked against them), walked by every bridge. */
export const INVOKES: { readonly [K in InvokeName]: Invokes[K]['channel'] } = {
  systemInfo: 'system:info',
  checkPeer: 'peer:check',
  startRun: 'run:start',
  stopRun: 'run:stop',
  runState: 'run:state',
  startResponder: 'responder:start',
  stopResponder: 'responder:stop',
  responderStatus: 'responder:status-now',
  startIperf3Server: 'iperf3:start',
  stopIperf3Server: 'iperf3:stop',
  listHistory: 'history:list',
  exportHistory: 'history:export',
  historyRetention: 'history:retention',
  setHistoryRetention: 'history:retention-set',
  previewHistoryRetention: 'history:retention-preview',
  loadResult: 'history:load',
  exportResult: 'export:save',
  reportText: 'report:text',
  linkPresets: 'link:presets',
  emulatorCapacity: 'link:capacity',
  setBypass: 'link:bypass',
  discoverResponders: 'pair:discover',
  pairPeer: 'pair:pair',
  listPeers: 'pair:list',
  forgetPeer: 'pair:forget',
  sweepStart: 'sweep:start',
  sweepStop: 'sweep:stop',
  sweepResume: 'sweep:resume',
  sweepGet: 'sweep:get',
  sweepExport: 'sweep:export',
  listSweeps: 'sweep:list',
  rampStart: 'ramp:start',
  rampStop: 'ramp:stop',
  rampGet: 'ramp:get',
  rampExport: 'ramp:export',
  listRamps: 'ramp:list',
  startGroupRun: 'group:start',
  listGroups: 'group:list',
  loadGroup: 'group:load',
  exportGroup: 'group:export',
  groupReportText: 'group:text',
  listSchedules: 'schedule:list',
  saveSchedule: 'schedule:save',
  pauseSchedule: 'schedule:pause',
  deleteSchedule: 'schedule:delete',
  setScheduleMetrics: 'schedule:metrics',
};

export const EVENTS: { readonly [K in EventName]: Events[K]['channel'] } = {
  onPhase: 'run:phase',
  onSample: 'run:sample',
  onRunEnd: 'run:end',
  onRunFailed: 'run:failed',
  onResponder: 'responder:status',
  onResponderSample: 'responder:sample',
  onResponderEnd: 'responder:end',
  onIperf3Server: 'iperf3:status',
  onSweepProgress: 'sweep:progress',
  onRampProgress: 'ramp:progress',
  onGroupEnd: 'group:end',
  onSchedules: 'schedule:update',
};

/** `window.longhaul`: named actions, each event subscription returns its unsubscribe. */
export type LonghaulApi = {
  readonly [K in InvokeName]: (req: Invokes[K]['req']) => Promise<Invokes[K]['res']>;
} & {
  readonly [K in EventName]: (cb: (payload: Events[K]['payload']) => void) => () => void;
};

/** What the host (main process or browser-mode server) implements, keyed by action. */
export type ApiHandlers = {
  readonly [K in InvokeName]: (req: Invokes[K]['req']) => Promise<Invokes[K]['res']>;
};

/** An error as it crosses IPC or the WebSocket; the UI may act on `code`. */
export interface ApiError {
  code: LonghaulErrorCode;
  message: string;
}

/** Browser-mode WebSocket frames (JSON text). */
export type WireRequest = { kind: 'call'; id: number; name: InvokeName; req: unknown };
export type WireMessage =
  | { kind: 'reply'; id: number; ok: true; res: unknown }
  | { kind: 'reply'; id: number; ok: false; error: ApiError }
  | { kind: 'event'; name: EventName; payload: unknown };
