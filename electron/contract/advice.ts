/**
 * Advice: what to change, on which PC, so the limit a run met moves. One entry
 * per setting; the rules are in electron/analysis/advice/ (one file per OS family).
 * Longhaul never changes a system setting itself: it names the setting, its
 * value where this PC could read it, the value the measured path needs, and
 * where to change it. A second run shows whether the change worked.
 */
import type { Side } from './direction.js';
import type { LimiterVerdict } from './limiter-verdict.js';

/** The OS an end reported in its hello (`os.platform()`, `os.release()`); absent from older peers. */
export interface PeerOs {
  platform: string;
  release: string;
}

/** What the advice is about. */
export type AdviceTopic =
  | 'receive-window'
  | 'send-buffer'
  | 'window-scaling'
  | 'mss'
  | 'application'
  | 'longhaul-request'
  /** The link emulator or the link it models (a run through `longhaul loopback --link …`): not an OS setting. */
  | 'link-emulator'
  /** The path itself (its link rate or its queue): nothing on either PC moves the limit; more streams or a faster link do. */
  | 'path'
  /** The sender's congestion control (loss, a queue it fills): BBR with fq on Linux. */
  | 'congestion-control'
  /** A PC's CPU (copying bytes on a shared core): not a TCP setting. */
  | 'cpu'
  /** The run itself: longer, or with more streams, to see what the path carries. */
  | 'run';

/**
 * The Longhaul control an advice row is about, as data: the terminal's words name its flag (the row's saved
 * `setting` and `how`), the app's name its own control (contract/advice-text.ts). Absent on OS settings.
 */
export type LonghaulControl =
  /** The run's --window; `bytes` the window per stream that fills the path (null: unknown), `streams` to split it over. */
  | { kind: 'window'; bytes: number | null; streams: number | null }
  | { kind: 'bitrate' }
  /** A UDP run's rate (the Test step's Bitrate per stream), `rate` per stream to try: higher to find where loss begins, lower to find what is carried. */
  | { kind: 'udp-rate'; change: 'higher' | 'lower'; rate: string }
  /** A UDP run's receiving socket buffer (the Test step's Receive buffer per stream), `bytes` to ask for. */
  | { kind: 'udp-buffer'; bytes: number }
  | { kind: 'buffer'; bytes: number }
  | { kind: 'seconds'; seconds: number; streams: number }
  /** More streams (`streams`, now `now`) to spread the copying over more cores. */
  | { kind: 'streams'; streams: number; now: number }
  /** The two ends on two PCs; here, `streams` instead of `now` to tell the PC's limit. */
  | { kind: 'second-pc'; streams: number; now: number }
  | { kind: 'emulator' }
  /** One setting of the emulated link; `bytes` the window it needs (field `window`, null: unknown). */
  | { kind: 'link'; field: 'rate' | 'loss' | 'window'; bytes: number | null };

/** One setting to change on one PC. Text fields are for people; figures carry their units in the text. */
export interface Advice {
  direction: 'controllerToResponder' | 'responderToController';
  /** The verdict this advice answers. */
  verdict: LimiterVerdict;
  topic: AdviceTopic;
  /** Which end must change: its role in the run, whether it is the PC that wrote the result, and its name. */
  side: Side;
  thisPc: boolean;
  hostname: string;
  /** The OS family the advice is written for (`Linux`, `Windows`, `Windows (before Vista)`, `macOS`, `unknown`). */
  os: string;
  /** The setting, e.g. `net.ipv4.tcp_rmem (third value: the most receive autotuning may use)`. */
  setting: string;
  /** Its current value as read on this PC, or null: unknown (not readable from here). */
  currentValue: string | null;
  /** The value the measured path needs, with its unit, e.g. `at least 1,300,000 bytes`. */
  neededValue: string;
  /** The command or place to change it. */
  how: string;
  /** The one OS command that makes the change on the PC named (`sudo sysctl -w …`); absent where no single command does. */
  command?: string;
  /** Longhaul's own flags that try the change (`--window 650000`), for `longhaul run`/`loopback`; absent where none do. */
  runFlags?: string;
  /** A whole Longhaul command line that tries it (the emulated link changed, a second PC); the terminal's, never the app's. */
  longhaulCommand?: string;
  /** Why, with the numbers: the one sentence a person needs before changing anything. */
  why: string;
  /** The Longhaul control the row is about, where it is one (the app words it as its own control). */
  control?: LonghaulControl;
}
