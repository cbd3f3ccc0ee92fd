/**
 * A diagnosis as data: the verdict, the sub-case that decided it, and the figures it used, each with
 * its unit and where it came from. The analysis (electron/analysis/) produces these; words are
 * rendered from them at the edge (contract/answer-text.ts for the answer, the reports for detail),
 * and advice, the what-if and the tests key off `(verdict, case, figures)`, never off a sentence.
 */

/**
 * Every sub-case, `verdict/sub-case`: stable keys (saved results, tests and scripts match on them).
 * docs/results.md, "Diagnosis cases", says what each means.
 */
export const DIAGNOSIS_CASES = [
  'unknown/nothing-measured',
  'unknown/rtt-unknown',
  'unknown/emulator-bypassed',
  'window-limited/os-receive-buffer',
  'window-limited/requested',
  'window-limited/emulated-window',
  'send-buffer-limited/send-buffer',
  'receiver-limited/app-lagged',
  'receiver-limited/cpu-starved',
  'congestion-limited/slow-start',
  'congestion-limited/loss-rate-unknown',
  'congestion-limited/retransmits-unknown',
  'congestion-limited/emulated-slow-start',
  'congestion-limited/emulated-loss',
  'loss-limited/random-loss',
  'application-limited/sender-idle',
  'application-limited/paced',
  'cpu-limited/process',
  'cpu-limited/same-pc',
  'cpu-limited/unmeasured',
  'link-limited/rate-reached',
  'link-limited/standing-queue',
  'link-limited/queue-overflow',
  'link-limited/socket-full',
  'link-limited/bufferbloat',
  'emulator-limited/fell-behind',
  'mss-limited/small-segments',
] as const;

export type DiagnosisCase = (typeof DIAGNOSIS_CASES)[number];

/** What a figure counts in: bit/s, bytes, seconds, a share of 0–1, a count, CPU cores. */
type FigureUnit = 'bit/s' | 'B' | 's' | 'share' | 'count' | 'cores';

/**
 * Where a figure came from: `tcp_info` the sending kernel's readings; `measured` Longhaul's byte counts
 * and clocks; `cpu` the OS's CPU accounting; `model` computed from other figures (window ÷ RTT, Mathis);
 * `given` the user's statement (--path-rate); `emulated` the link emulator's settings or its own watch.
 */
type FigureSource = 'tcp_info' | 'measured' | 'cpu' | 'model' | 'given' | 'emulated';

export interface Figure {
  value: number;
  unit: FigureUnit;
  source: FigureSource;
}

/** The figures a finding may carry; each is present only where the rule used it. */
export type FigureName =
  | 'measured'
  | 'rtt'
  | 'minRtt'
  | 'queueing'
  | 'window'
  | 'windowRate'
  | 'windowAtMinRtt'
  | 'cwnd'
  | 'cwndRate'
  | 'linkRate'
  | 'receiveBuffer'
  | 'retransmits'
  | 'segmentsSent'
  | 'lossRatio'
  | 'lossModelRate'
  | 'rwndShare'
  | 'sndbufShare'
  | 'senderIdleShare'
  | 'cpuShareOfCore'
  | 'pcBusyShare'
  | 'cores'
  | 'readerWaitShare'
  | 'pacedRate'
  | 'mss'
  | 'pathMss'
  | 'modelRate'
  | 'rampSeconds'
  | 'transferSeconds'
  | 'streams';

export type Figures = Partial<Record<FigureName, Figure>>;

/** Something true beside the verdict that the detail names (loss that did not set the rate, a stated rate the run beat…). */
export type FindingNote = 'loss-present-bbr' | 'loss-present' | 'window-scale-zero' | 'stated-rate-contradicted' | 'small-segments' | 'rtt-varied';

/** A figure in one call: `fig(12e6, 'bit/s', 'measured')`. */
export function fig(value: number, unit: FigureUnit, source: FigureSource): Figure {
  return { value, unit, source };
}
