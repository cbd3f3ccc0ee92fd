/**
 * `-O, --omit S`, as iperf3's: the first S seconds (slow start, buffers filling) stay in the
 * intervals, marked `omitted: true`, and are left out of the totals and the verdict. An interval is
 * omitted when its middle lies before S (receiver clock), so at `-i 1 -O 1` the first interval is.
 * The totals then count what arrived after the last omitted interval's end, over the time from that
 * end (or the stream's first byte, if later) to its last byte; the diagnosis reads only the TCP
 * readings after it, with cumulative retransmits counted from it.
 */
import type { IntervalResult, LonghaulResult, StreamResult, TcpSample } from '../contract/result.js';

/** The one rule: an interval is omitted when its middle lies before S. */
export function isOmitted(iv: Pick<IntervalResult, 't' | 'seconds'>, omitSeconds: number | null | undefined): boolean {
  return Boolean(omitSeconds && omitSeconds > 0 && iv.t - iv.seconds / 2 < omitSeconds);
}

/** Mark the intervals in the omitted seconds; returns the index and end time of the last one (null: none). */
export function markOmitted(intervals: IntervalResult[], omitSeconds: number | null | undefined): { index: number; t: number } | null {
  if (!omitSeconds || omitSeconds <= 0) return null;
  let last: { index: number; t: number } | null = null;
  for (const iv of intervals) {
    if (!isOmitted(iv, omitSeconds)) break;
    iv.omitted = true;
    last = { index: iv.index, t: iv.t };
  }
  return last;
}

/** A stream's headline (receiver's view) without the omitted intervals' bytes and time. */
export function omitStream(s: StreamResult, intervals: IntervalResult[], boundaryT: number): StreamResult {
  let received = 0;
  let completions = 0;
  let sampled = false;
  for (const iv of intervals) {
    if (!iv.omitted) continue;
    const x = iv.streams.find((e) => e.id === s.id);
    sampled ||= x?.receivedBytes !== null && x?.receivedBytes !== undefined;
    received += x?.receivedBytes ?? 0;
    completions += x?.receiveCompletions ?? 0;
  }
  // A receiver that sent no samples of those seconds reported its totals only: iperf3's already leave its -O seconds out.
  if (!sampled) return s;
  const bytes = Math.max(0, s.bytes - received);
  const first = s.receive?.firstT ?? null;
  const lastT = s.receive?.lastT ?? null;
  const seconds = first !== null && lastT !== null ? Math.max(0, lastT - Math.max(first, boundaryT)) : null;
  return { ...s, bytes, seconds, completions: Math.max(0, s.completions - completions), bitsPerSecond: seconds && seconds > 0 ? (bytes * 8) / seconds : null };
}

/** Bytes each stream's sender handed to its kernel during the omitted intervals. */
export function omittedSentBytes(intervals: IntervalResult[], id: number): number {
  return intervals.filter((iv) => iv.omitted).reduce((a, iv) => a + (iv.streams.find((e) => e.id === id)?.sentBytes ?? 0), 0);
}

/** The readings after the omitted seconds, retransmits counted from the last omitted reading: what the diagnosis reads. */
function readingsAfterOmit(series: TcpSample[], lastOmittedIndex: number): TcpSample[] {
  const base = [...series].reverse().find((x) => x.index <= lastOmittedIndex);
  const baseRetrans = base?.totalRetransSegments ?? null;
  return series
    .filter((x) => x.index > lastOmittedIndex)
    .map((x) =>
      baseRetrans !== null && x.totalRetransSegments !== null ? { ...x, totalRetransSegments: Math.max(0, x.totalRetransSegments - baseRetrans) } : x,
    );
}

/** The result as the diagnosis should see it: every stream's sending readings after the omitted seconds. */
export function analysisView(r: LonghaulResult): LonghaulResult {
  // A trimmed document re-diagnosed from its streams alone may come without intervals: nothing omitted.
  const lastOmitted = [...((r.intervals as IntervalResult[] | undefined) ?? [])].reverse().find((iv) => iv.omitted);
  if (!lastOmitted) return r;
  const streams = r.streams.map((s) => (s.send?.tcp ? { ...s, send: { ...s.send, tcp: readingsAfterOmit(s.send.tcp, lastOmitted.index) } } : s));
  return { ...r, streams };
}
