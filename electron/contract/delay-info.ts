/**
 * Delay under load: the path's round-trip time idle and while the transfer
 * filled it, and the difference, the queueing the path adds under load
 * ("the path adds 200 ms of queueing under load"). Both figures come from the
 * sending kernels' TCP_INFO: idle is min_rtt (the lowest RTT the kernel saw,
 * taken before the queue filled), loaded is the smoothed RTT while data was in
 * flight. One rule for the queueing (per stream, smoothed less minimum, never
 * below zero; the median over streams): the result, the reports, the verdict
 * and the Run screen's live figure all use `queueingUs`.
 */

/** Where the idle RTT came from; 'unknown' when nothing reported it. */
type IdleRttSource = 'tcp_info min_rtt' | 'unknown';
/** Where the loaded RTT came from; 'unknown' when nothing reported it. */
type LoadedRttSource = 'tcp_info smoothed rtt' | 'unknown';

/** The delay-under-load figures of one run (longhaul.result/1 `delay`; docs/results.md). */
export interface DelayInfo {
  /** Which direction the figures describe (the first that carried data with TCP_INFO readings). */
  direction: 'controllerToResponder' | 'responderToController';
  /** RTT with the path idle, ms; null: unknown. */
  idleRttMs: number | null;
  idleSource: IdleRttSource;
  /** RTT under load (median smoothed RTT over the transfer's readings, median over streams), ms; null: unknown. */
  loadedRttMs: number | null;
  loadedSource: LoadedRttSource;
  /** The queueing the path added under load, ms (≥ 0): the typical one (median over the transfer's readings); null: unknown. */
  queueingMs: number | null;
  /**
   * The most queueing any reading saw, ms (per stream the highest smoothed RTT less the minimum, median over
   * streams): what a full queue holds at the link rate, where a loss-based sender (CUBIC) fills it before it
   * backs off. Absent in results without it; null: unknown.
   */
  peakQueueingMs?: number | null;
  /**
   * The control channel's own round trip (Longhaul's ping on its TLS connection, the same path beside the data),
   * ms: idle = the lowest before the transfer, loaded = the median while it ran. Independent of TCP_INFO, so known
   * where an OS gives no RTT (Windows under Wine). Includes each end's event-loop turn (well under 1 ms when idle).
   * null: unknown (an older peer without `control:ping`, or no answer); absent in older results.
   */
  controlIdleRttMs?: number | null;
  controlLoadedRttMs?: number | null;
  /** How many pings were answered before the transfer and during it. */
  controlPings?: { idle: number; loaded: number };
}

/** The control channel's queueing under load, ms: loaded less idle, never below 0; null when either is unknown. */
export function controlQueueingMs(d: DelayInfo): number | null {
  const idle = d.controlIdleRttMs ?? null;
  const loaded = d.controlLoadedRttMs ?? null;
  return idle === null || loaded === null ? null : Math.max(0, loaded - idle);
}

/** One stream's queueing from one reading, µs: smoothed RTT less the minimum, never below zero; null when either is unknown. */
export function queueingUs(rttUs: number | null | undefined, minRttUs: number | null | undefined): number | null {
  if (rttUs === null || rttUs === undefined || minRttUs === null || minRttUs === undefined || minRttUs <= 0) return null;
  return Math.max(0, rttUs - minRttUs);
}

/** A delay in ms as the reports print it: µs under 1 ms (a loopback's 4 µs is not "0.00 ms"), two decimals under 10 ms, one under 100 ms, whole above. */
function formatDelayMs(ms: number | null): string {
  if (ms === null) return 'unknown';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  return `${ms.toFixed(ms < 10 ? 2 : ms < 100 ? 1 : 0)} ms`;
}

/**
 * The sentence of the summary and the HTML report: idle, under load, and the difference stated. Through the
 * link emulator (`emulatedRttMs`: its round trip) the kernels' figures span only the local hop to it: said so,
 * and the emulated link's round trip named first.
 */
export function delaySentence(d: DelayInfo, emulatedRttMs: number | null = null): string {
  const idle = `${formatDelayMs(d.idleRttMs)}${d.idleRttMs === null ? '' : ` (${d.idleSource})`}`;
  const loaded = `${formatDelayMs(d.loadedRttMs)}${d.loadedRttMs === null ? '' : ` (${d.loadedSource})`}`;
  const diff = d.queueingMs === null ? 'the queueing under load is unknown' : `the path adds ${formatDelayMs(d.queueingMs)} of queueing under load`;
  const peak = d.peakQueueingMs === null || d.peakQueueingMs === undefined || d.queueingMs === null ? '' : ` (at most ${formatDelayMs(d.peakQueueingMs)})`;
  const q = controlQueueingMs(d);
  const control =
    d.controlPings === undefined
      ? ''
      : `; the control channel's ping: idle ${formatDelayMs(d.controlIdleRttMs ?? null)}, under load ${formatDelayMs(d.controlLoadedRttMs ?? null)}${q === null ? '' : ` (+${formatDelayMs(q)})`}`;
  if (emulatedRttMs !== null)
    return `the emulated link's RTT is ${formatDelayMs(emulatedRttMs)}; on the local hop to the emulator, RTT idle ${idle}, under load ${loaded}: the local hop adds ${d.queueingMs === null ? 'unknown' : formatDelayMs(d.queueingMs)} of queueing${control}`;
  return `RTT idle ${idle}, under load ${loaded}: ${diff}${peak}${control}`;
}
