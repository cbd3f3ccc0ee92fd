/**
 * The diagnosis of a result document, one per direction that carried data: runs through the link
 * emulator are diagnosed from the emulated link (emulated-diagnosis.ts), direct runs from the
 * senders' TCP_INFO series (limiter-inputs.ts, limiter.ts), with the MSS verdict where segments
 * were far smaller than the path allows. Pure, so a saved result can be re-diagnosed.
 */
import { udpDiagnosis } from './verdicts/udp.js';
import { UDP_DEFAULT_BITS_PER_SEC } from '../contract/udp.js';
import { withDetail } from '../contract/detail-text/index.js';
import type { DiagnosisFinding, LonghaulResult } from '../contract/result.js';
import { diagnoseEmulated } from './emulated-diagnosis.js';
import { diagnoseLimiter } from './limiter.js';
import { limiterInputs } from './limiter-inputs.js';
import { pacedDiagnosis } from './verdicts/paced.js';
import { analysisView } from './omit-rule.js';
import { shownRate } from '../contract/partial-text.js';
import { mssCanExplain, mssFigures, mssFindingData, mssIsSmall } from './mss-verdict.js';

/** One diagnosis per direction that carried data. */
export function diagnoseResult(whole: LonghaulResult, linkBitsPerSecond: number | null = null): DiagnosisFinding[] {
  const r = analysisView(whole); // --omit: the readings of the omitted seconds are not the transfer's
  const out: DiagnosisFinding[] = [];
  for (const direction of ['controllerToResponder', 'responderToController'] as const) {
    const whole = r.directions[direction];
    if (!whole) continue;
    // A partial run is judged on what was measured: its rate over the seconds measured (PartialRate).
    const shown = shownRate(whole);
    const total = { ...whole, bitsPerSecond: shown.bitsPerSecond, seconds: shown.seconds };
    const sender = direction === 'controllerToResponder' ? 'controller' : 'responder';
    const streams = r.streams.filter((s) => s.sender === sender);
    // --bitrate held the senders to what they carried: that is the limit, emulated link or not. (A trimmed
    // document re-diagnosed from its link and streams alone may come without params: unpaced.)
    const asked = (r.params as LonghaulResult['params'] | undefined)?.bitrateBitsPerSec ?? null;
    if ((r.params as LonghaulResult['params'] | undefined)?.protocol === 'udp') {
      const base = diagnoseLimiter(
        { ...limiterInputs(streams, total.bitsPerSecond, total.seconds, linkBitsPerSecond), cpu: r.cpu ?? null },
        Math.max(1, streams.length),
      );
      const relay = r.link?.udpRelay?.[direction === 'controllerToResponder' ? 'up' : 'down'] ?? null;
      out.push(udpDiagnosis(total, streams, asked ?? UDP_DEFAULT_BITS_PER_SEC, sender, { direction, ...base }, relay));
      continue;
    }
    if (asked) {
      const base = diagnoseLimiter(
        { ...limiterInputs(streams, total.bitsPerSecond, total.seconds, linkBitsPerSecond), cpu: r.cpu ?? null },
        Math.max(1, streams.length),
      );
      const paced = pacedDiagnosis(asked, r.pacing, sender, streams.length, { direction, ...base });
      if (paced) {
        out.push(paced);
        continue;
      }
    }
    if (r.link?.settings) {
      out.push(diagnoseEmulated(r.link, r.link.settings, direction, total, streams, linkBitsPerSecond));
      continue;
    }
    const inputs = {
      ...limiterInputs(streams, total.bitsPerSecond, total.seconds, linkBitsPerSecond),
      cpu: r.cpu ?? null,
      windowRequestedBytes: r.params.windowBytes,
    };
    const d = diagnoseLimiter(inputs, Math.max(1, streams.length));
    const mss = mssFigures(streams, r.params.mssBytes ?? null);
    if (mss && mssIsSmall(mss) && !inputs.linkBitsPerSecond) {
      const small = mssFindingData(mss, d.verdict);
      const data = { direction, ...d, figures: { ...d.figures, ...small.figures }, facts: { ...d.facts, ...small.facts } };
      if (mssCanExplain(d.verdict)) {
        out.push(withDetail({ ...data, verdict: 'mss-limited', case: 'mss-limited/small-segments' }));
        continue;
      }
      // A CPU at its limit with small segments: each segment costs the same work, so the segment size is a
      // likely cause of the CPU's load and is named beside it (the verdict stays the measured CPU).
      if (d.verdict === 'link-limited' || d.verdict === 'cpu-limited') {
        out.push(withDetail({ ...data, notes: [...(d.notes ?? []), 'small-segments'] }));
        continue;
      }
    }
    out.push({ direction, ...d });
  }
  return out;
}
