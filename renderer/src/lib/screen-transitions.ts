/**
 * The app's screen changes, named. Every change of screen goes through one of
 * these, and each one sets everything that screen reads, so no caller copies a
 * reset by hand (and forgets a field: a group shown over a stale single result,
 * a failed start's message left on the next run).
 *
 *   start ─► pair ─► link ─► test ──beginRun──► run ──showResult / showGroup──► results
 *     │        ▲               ▲       │   failStart (back to the step that can fix it)
 *     └► waiting               └───────┘
 *   history ──openStoredResult / openStoredGroup──► results
 *   history / test ──showSweep──► sweep
 *   history / test ──showRamp───► ramp
 *
 * Plain in-wizard steps (Back, Next, the top bar) carry no state and use `goTo`,
 * which cannot enter 'run' or 'results': those need the run or the result they show.
 * The state is passed in, so the rules are tested on a plain object (test/renderer/).
 */
import type { LonghaulGroupResult } from '../../../electron/contract/group.js';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import type { StartFailure } from './start-failure.js';
import type { LiveSweep } from './sweep-live.js';
import type { RampView } from '../../../electron/contract/udp-ramp-app.js';

export type Screen = 'start' | 'pair' | 'link' | 'test' | 'run' | 'results' | 'history' | 'waiting' | 'sweep' | 'ramp' | 'schedules';

/** The screens a plain step may go to: the run and results screens are entered with what they show. */
type StepScreen = Exclude<Screen, 'run' | 'results'>;

/** The fields the transitions set (the app state has more; `Run` is its live run type). */
export interface ScreenFields<Run> {
  screen: Screen;
  run: Run | null;
  result: LonghaulResult | null;
  group: LonghaulGroupResult | null;
  resultSavedPath: string | null;
  /** Distance for bit·m/s, metres, of the run shown. */
  distanceMeters: number | null;
  startFailure: StartFailure | null;
  announcement: string;
  sweep: LiveSweep | null;
  ramp: RampView | null;
}

/** The named transitions, bound to one state object. */
interface ScreenTransitions<Run> {
  /** A plain step (Back, Next, the top bar): nothing else changes. */
  goTo(screen: StepScreen): void;
  /** A run (single or group) starts: the last result and any start failure go, the Run screen shows `run`. */
  beginRun(run: Run, distanceMeters: number | null): void;
  /** A start failed before any byte moved: back to the step that can fix it, with the reason. */
  failStart(failure: StartFailure): void;
  /** The live run ended with a single result (the run stays, for its notices). */
  showResult(result: LonghaulResult, savedPath: string | null): void;
  /** The live group run ended (the run stays, for its notices). */
  showGroup(group: LonghaulGroupResult, savedPath: string | null): void;
  /** A stored result opened from History: no live run; the distance typed travels in the result. */
  openStoredResult(result: LonghaulResult): void;
  /** A stored group opened from History: no live run, no distance. */
  openStoredGroup(group: LonghaulGroupResult): void;
  /** A sweep (started, resumed or opened) on the Sweep screen. */
  showSweep(sweep: LiveSweep): void;
  /** A UDP ramp (started, or opened from History) on the Ramp screen; a failed start's message goes. */
  showRamp(ramp: RampView): void;
}

/** The transitions over `s` (the app's state, or a plain object in a test). */
export function screenTransitions<Run>(s: ScreenFields<Run>): ScreenTransitions<Run> {
  const showStored = (): void => {
    s.run = null;
    s.resultSavedPath = null;
    s.screen = 'results';
  };
  return {
    goTo(screen) {
      s.screen = screen;
    },
    beginRun(run, distanceMeters) {
      s.result = null;
      s.group = null;
      s.distanceMeters = distanceMeters;
      s.startFailure = null;
      s.announcement = '';
      s.run = run;
      s.screen = 'run';
    },
    failStart(failure) {
      s.run = null;
      s.startFailure = failure;
      s.announcement = '';
      s.screen = failure.step;
    },
    showResult(result, savedPath) {
      s.group = null;
      s.result = result;
      s.resultSavedPath = savedPath;
      s.screen = 'results';
    },
    showGroup(group, savedPath) {
      s.result = null;
      s.group = group;
      s.resultSavedPath = savedPath;
      s.screen = 'results';
    },
    openStoredResult(result) {
      s.result = result;
      s.group = null;
      s.distanceMeters = result.distance?.meters ?? null;
      showStored();
    },
    openStoredGroup(group) {
      s.group = group;
      s.result = null;
      s.distanceMeters = null;
      showStored();
    },
    showSweep(sweep) {
      s.sweep = sweep;
      s.screen = 'sweep';
    },
    showRamp(ramp) {
      s.ramp = ramp;
      s.startFailure = null;
      s.screen = 'ramp';
    },
  };
}
