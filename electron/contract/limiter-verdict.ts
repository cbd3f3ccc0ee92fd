/**
 * The limiter verdicts, in their own file so that what names one (a result's
 * diagnosis, a piece of advice, a label) need not import the whole result.
 */

/**
 * Which limit explains a direction's throughput (docs/results.md, "Diagnosis"; labels in contract/verdict-labels.ts).
 * `send-buffer-limited`: the sender's send buffer; `receiver-limited`: the receiving application (or its CPU) did not
 * read fast enough, so the advertised window stayed below what its buffer allowed; `loss-limited`: packet loss set the
 * pace (a Mathis/Reno estimate); `cpu-limited`: a side or data thread near one full core; `emulator-limited`: the link
 * emulator on this PC fell behind its own schedule (analysis/emulator-verdict.ts); `mss-limited`: segments far smaller
 * than the path allows, with no window binding (analysis/mss-verdict.ts).
 */
export type LimiterVerdict =
  | 'window-limited'
  | 'send-buffer-limited'
  | 'receiver-limited'
  | 'congestion-limited'
  | 'loss-limited'
  | 'application-limited'
  | 'cpu-limited'
  | 'link-limited'
  | 'emulator-limited'
  | 'mss-limited'
  | 'unknown';
