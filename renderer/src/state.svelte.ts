/**
 * The app's state, one object with explicit fields, in the order a user goes:
 * screen → partner → link → test form → run → result. Screens read and write
 * it; only `run-control.ts` talks to the API about runs. The screen changes only
 * through the named transitions at the end (lib/screen-transitions.ts).
 */
import {
  DEFAULT_PORT,
  IPERF3_DEFAULT_PORT,
  type BypassState,
  type ConnectionCheck,
  type Iperf3ServerStatus,
  type LinkChoice,
  type PartnerKind,
  type ResponderStatus,
  type RunPhase,
  type SystemInfo,
  type UiLinkPreset,
  type UiRunParams,
} from '../../electron/contract/api.js';
import type { LonghaulGroupResult } from '../../electron/contract/group.js';
import type { HistoryEntry } from '../../electron/contract/history.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { GroupSeries } from './lib/group-series.js';
import { DEFAULT_LINK_FORM, type LinkForm } from './lib/link-form.js';
import type { StartFailure } from './lib/start-failure.js';
import type { LivePhase } from './lib/run-phase-text.js';
import { LiveSeries } from './lib/live-series.js';
import { TcpSeries } from './lib/tcp-series.js';
import { screenTransitions, type Screen } from './lib/screen-transitions.js';
import { DEFAULT_FORM, type TestForm } from './lib/test-form.js';
import { DEFAULT_SWEEP_FORM, type SweepForm } from './lib/sweep-form.js';
import type { LiveSweep } from './lib/sweep-live.js';
import type { RampView } from '../../electron/contract/udp-ramp-app.js';
import type { ScheduleListing, ScheduleNotice } from '../../electron/contract/schedule-app.js';

export type { Screen };

/** The steps of a controller run, for the step bar. */
export const STEPS: { screen: Screen; label: string }[] = [
  { screen: 'start', label: 'Start' },
  { screen: 'pair', label: 'Partner' },
  { screen: 'link', label: 'Link' },
  { screen: 'test', label: 'Test' },
  { screen: 'run', label: 'Run' },
  { screen: 'results', label: 'Results' },
];

/** A group run's own live state: its peers as chosen, each one's phase and host name, the per-peer series. */
export interface GroupLive {
  peers: { host: string; port: number }[];
  phases: RunPhase[];
  /** From each peer's hello (made printable by the protocol's schemas), null before it. */
  hostnames: (string | null)[];
  receiver: GroupSeries;
  sender: GroupSeries;
}

/** A partner on the Pair screen's list: ticked ones are in the next test (two or more: a group run). */
interface PartnerChoice {
  address: string;
  ticked: boolean;
}

export interface LiveRun {
  runId: string;
  /** What was asked for (null on the responder side, which is not told here). */
  params: UiRunParams | null;
  phase: LivePhase;
  receiver: LiveSeries;
  sender: LiveSeries;
  /** The sending kernels' RTT and cwnd (native addon), per tick. */
  tcp: TcpSeries;
  /** How the traffic goes (the responder side does not know: direct). */
  link: LinkChoice;
  /** What the partner runs: with iperf3 only this PC's counters exist (iperf3 sends no samples). */
  partner: PartnerKind;
  /** The proxy's bypass switch as the proxy confirmed it; null for direct runs. */
  bypass: BypassState | null;
  /** A multi-peer run's peers and series (then `receiver`/`sender` stay empty), or null for a single run. */
  group: GroupLive | null;
  /** Bumped per sample so views re-read the series. */
  tick: number;
  startedAtMs: number;
  stopping: boolean;
  error: string | null;
}

class AppState {
  screen = $state<Screen>('start');
  system = $state<SystemInfo | null>(null);
  systemError = $state<string | null>(null);
  /** The partner, as typed: host or host:port. */
  partner = $state('');
  /** What listens there: a Longhaul responder, or an `iperf3 -s` (no pairing, port 5201 unless typed). */
  partnerKind = $state<PartnerKind>('longhaul');
  check = $state<ConnectionCheck | null>(null);
  /** Partners put on the Pair screen's list; two or more ticked make the test a group run. */
  partners = $state<PartnerChoice[]>([]);
  link = $state<LinkForm>({ ...DEFAULT_LINK_FORM });
  /** The emulator's presets, from the host (the renderer never imports electron/proxy). */
  presets = $state<UiLinkPreset[]>([]);
  form = $state<TestForm>({ ...DEFAULT_FORM });
  run = $state<LiveRun | null>(null);
  result = $state<LonghaulResult | null>(null);
  resultSavedPath = $state<string | null>(null);
  /** The group run shown on Results (then `result` is null). */
  group = $state<LonghaulGroupResult | null>(null);
  /** Distance for bit·m/s, metres, from the form of the run shown (not stored in the result). */
  distanceMeters = $state<number | null>(null);
  history = $state<HistoryEntry[]>([]);
  responder = $state<ResponderStatus | null>(null);
  responderRun = $state<LiveRun | null>(null);
  responderResult = $state<LonghaulResult | null>(null);
  /** Why the last start failed before any byte moved; shown on the step that can fix it (lib/start-failure.ts). */
  startFailure = $state<StartFailure | null>(null);
  /** What the polite live region says: phase changes and the final rate, never every tick. */
  announcement = $state('');
  /** The Waiting screen's iperf3 server (its runs share responderRun and responderResult). */
  iperf3Server = $state<Iperf3ServerStatus | null>(null);
  /** true while the local responder was started by "Both on this PC". */
  loopback = $state(false);
  /**
   * "Both on this PC" puts the loopback responder's address in `partner`; the partner typed before
   * is kept here and comes back when the user runs a test from this PC (while `partner` still holds `loopback`).
   */
  partnerBeforeLoopback = $state<{ partner: string; loopback: string } | null>(null);
  sweepForm = $state<SweepForm>({
    ...DEFAULT_SWEEP_FORM,
    directions: [...DEFAULT_SWEEP_FORM.directions],
    links: [...DEFAULT_SWEEP_FORM.links],
    paths: [...DEFAULT_SWEEP_FORM.paths],
  });
  /** Seeds the plan's shuffle; drawn once per form, so the plan shown is the plan started. */
  sweepSeed = $state(Math.floor(Math.random() * 2 ** 32));
  /** The sweep on the Sweep screen (running, or opened from History); raw: the chart keeps its own copies. */
  sweep = $state.raw<LiveSweep | null>(null);
  /** The UDP ramp on the Ramp screen (running, or opened from History); raw: replaced whole on every event. */
  ramp = $state.raw<RampView | null>(null);
  /** This PC's kept schedules as the host last listed them (schedule-control.ts); raw: replaced whole on every update. */
  schedules = $state.raw<ScheduleListing | null>(null);
  /** Scheduled tests to tell the user about (a failure, a changed verdict), newest last, until dismissed. */
  scheduleNotices = $state<ScheduleNotice[]>([]);
}

export const app = new AppState();

/** Every screen change: `goTo` for a plain step, the others set what their screen shows (lib/screen-transitions.ts). */
export const { goTo, beginRun, failStart, showResult, showGroup, openStoredResult, openStoredGroup, showSweep, showRamp } = screenTransitions<LiveRun>(app);

/** The port a partner address without one means: iperf3's own for an iperf3 partner. */
export function partnerDefaultPort(): number {
  return app.partnerKind === 'iperf3' ? IPERF3_DEFAULT_PORT : (app.system?.defaultPort ?? DEFAULT_PORT);
}

/** host[:port] as typed → parts (IPv6 in brackets). null when it does not parse. */
export function splitPartner(text: string, defaultPort: number): { host: string; port: number } | null {
  const t = text.trim();
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(t) ?? /^([^:\s]+)(?::(\d+))?$/.exec(t);
  if (!m) return t.split(':').length > 2 ? { host: t, port: defaultPort } : null;
  const port = m[2] !== undefined ? Number(m[2]) : defaultPort;
  if (!m[1] || !(port >= 1 && port <= 65535)) return null;
  return { host: m[1], port };
}

export function newLiveRun(
  runId: string,
  params: UiRunParams | null,
  senderOf: (id: number) => 'controller' | 'responder',
  link: LinkChoice = { kind: 'direct' },
): LiveRun {
  return {
    runId,
    params,
    phase: 'hello',
    receiver: new LiveSeries({ view: 'receiver', senderOf }),
    sender: new LiveSeries({ view: 'sender', senderOf }),
    tcp: new TcpSeries(),
    group: null,
    link,
    partner: 'longhaul',
    bypass: link.kind === 'proxy' ? { runId, bypass: false, toggles: [] } : null,
    tick: 0,
    startedAtMs: Date.now(),
    stopping: false,
    error: null,
  };
}

/** The partners ticked on the Pair screen's list, parsed (unparseable ones are left out). */
export function tickedPartners(defaultPort: number): { host: string; port: number }[] {
  return app.partners
    .filter((p) => p.ticked)
    .map((p) => splitPartner(p.address, defaultPort))
    .filter((p): p is { host: string; port: number } => p !== null);
}

/** A multi-peer run: two or more Longhaul partners ticked on the Pair screen (one run per partner, direct to each). */
export function isGroupRun(): boolean {
  return app.partnerKind !== 'iperf3' && tickedPartners(app.system?.defaultPort ?? DEFAULT_PORT).length >= 2;
}

/** Why the Link step does not apply to the run being set up, or null when it does. */
export function linkStepSkipped(): string | null {
  if (app.partnerKind === 'iperf3') return 'an iperf3 server speaks no Longhaul: the run goes direct';
  if (isGroupRun()) return 'a run with several partners goes direct to each';
  return null;
}
