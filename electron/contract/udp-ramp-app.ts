/**
 * The app contract's ramp part (issue 38, item 2): the UDP ramp from the Test step, as the Ramp
 * screen and History exchange it with the host (electron/contract/api.ts names the channels). The
 * host keeps each ramp as one file, `<data dir>/ramps/<id>.json`, rewritten after every step (a
 * closed window or a crash loses at most the step in flight). Pure types, no Node imports.
 */
import type { LinkSettingsInfo } from './link-info.js';
import type { LonghaulResult, ResultParams } from './result.js';
import type { UdpRampEnd, UdpRampStep } from './udp-ramp.js';

/** Where the steps go: a paired Longhaul responder (this PC's own, for "both on this PC"), or an `iperf3 -s`. */
export type RampTarget = { kind: 'peer'; host: string; port: number } | { kind: 'iperf3'; host: string; port: number };

/** Through the link emulator on this PC with these settings (`preset`: the one they started from), or direct (null). */
export interface RampLink {
  preset: string | null;
  settings: LinkSettingsInfo;
}

export interface StartRampRequest {
  target: RampTarget;
  /** Each step's parameters (UDP; the Bitrate is the first step's rate, per stream; a time limit, one direction). */
  params: ResultParams;
  /** A step whose loss share is above this is dropped (0 < x ≤ 0.5). */
  lossThreshold: number;
  link: RampLink | null;
}

/** A ramp as its file keeps it: the request, the steps so far, the finding once it ended. */
export interface RampFile {
  schema: 'longhaul.udp-ramp/1';
  id: string;
  startedAt: string;
  updatedAt: string;
  target: RampTarget;
  /** The target in words: `192.0.2.7:5201`, `… (iperf3 -s)`. */
  label: string;
  params: ResultParams;
  link: RampLink | null;
  lossThreshold: number;
  streams: number;
  stepSeconds: number;
  steps: UdpRampStep[];
  carried: UdpRampStep | null;
  firstDropped: UdpRampStep | null;
  /** Why it ended; null while it runs, or when the app stopped before it could say (then `partial`). */
  end: UdpRampEnd | null;
  /** True until the ramp ended by its own rule or by Stop: a file left true was cut off (window closed, crash). */
  partial: boolean;
  /** Why it stopped when no step could run (the responder unreachable, the emulator did not start); null otherwise. */
  error: string | null;
  /** Every step's full result, in order (the JSON export keeps them; the screen reads the steps). */
  results: LonghaulResult[];
}

/** A ramp as the Ramp screen draws it: the file without the steps' full results, and what runs now. */
export interface RampView extends Omit<RampFile, 'results'> {
  /** True while this host is running it. */
  running: boolean;
  /** The step running now: its rate per stream and number (from 0); null between steps and after the end. */
  current: { askedBitsPerSec: number; index: number } | null;
}

/** A ramp as History lists it. */
export interface RampEntry {
  id: string;
  startedAt: string;
  label: string;
  steps: number;
  end: UdpRampEnd | null;
  /** What the highest carried step received, bit/s; null when none was carried. */
  carriedBitsPerSec: number | null;
  partial: boolean;
  running: boolean;
}

/** Ramp exports: the file itself (every step's result), or the console table with the answer. */
export type RampExportFormat = 'json' | 'console';
export const RAMP_EXPORT_FORMATS: readonly RampExportFormat[] = ['json', 'console'];
