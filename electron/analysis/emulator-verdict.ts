/**
 * Was the link emulator on this PC, not the emulated link, the limit? From the
 * emulator's watch on itself (result.link.emulatorWatch, written by
 * electron/proxy/emulator-watch.ts), one rule:
 *
 * - it fell behind: ≥ LATE_SHARE of the bytes left more than `lateMs` after
 *   their schedule, or its reader was behind the sender for ≥ BEHIND_SHARE of
 *   the time it carried data, or its process did not run (stopped, starved)
 *   for ≥ STALL_SHARE of that time, or it took ≥ CPU_SHARE of all this PC's CPU
 *   while it did (both ends run on the same cores in a loopback run: the
 *   emulator is then the largest claim on them);
 * - and the run fell short: below SHORT_OF_MODEL of what the emulated link
 *   allows (min(rate × payload share, streams × window / RTT); with neither, no
 *   bound, so any shortfall counts), or, where the modelled loss allows less
 *   (Reno's average window under it, per stream, over the RTT), more than
 *   BINDING_FACTOR below that: the band the loss verdict itself grants a run
 *   (emulated-diagnosis.ts), since a short run's few losses fall as they fall.
 *
 * Both, or the emulated link stays the explanation.
 */
import type { EmulatorDirectionInfo, EmulatorWatchInfo, LinkInfo } from '../contract/link-info.js';
import { payloadFraction } from '../contract/wire.js';
import type { EmulatorSign } from '../contract/finding.js';
import { renoWindowBytes } from '../contract/what-if.js';
import { BINDING_FACTOR } from './verdicts/context.js';

const LATE_SHARE = 0.05;
const BEHIND_SHARE = 0.25;
const SHORT_OF_MODEL = 0.9;
const CPU_SHARE = 0.4;
const STALL_SHARE = 0.1;

interface EmulatorLag {
  /** The emulator's watch on itself these shares come from. */
  watch: EmulatorWatchInfo;
  lateShare: number;
  behindShare: number;
  /** Share of all this PC's CPU the emulator used while it carried data; null where not measured. */
  cpuShare: number | null;
  /** Share of the time it carried data that its process did not run. */
  stallShare: number;
  maxLateMs: number;
  /** What the emulated link allows this direction, bit/s of payload; null: nothing in it limits. */
  modelBitsPerSecond: number | null;
}

/**
 * What the emulated link allows `streams` streams, bit/s of payload (null when nothing in its settings limits them),
 * and the least a run held by it reaches: SHORT_OF_MODEL of it, or 1 / BINDING_FACTOR where the modelled loss binds.
 */
function emulatedCeiling(link: LinkInfo, streams: number): { bitsPerSecond: number; least: number } | null {
  const s = link.settings;
  if (!s) return null;
  const rate = s.rateBitsPerSec === null ? Infinity : s.rateBitsPerSec * payloadFraction(s.mssBytes);
  const rtt = (2 * s.delayMs) / 1000;
  const window = s.windowBytes === null || rtt === 0 ? Infinity : (s.windowBytes * 8 * streams) / rtt;
  const reno = renoWindowBytes(s.lossRatio, s.mssBytes);
  const loss = reno === null || rtt === 0 ? Infinity : (reno * 8 * streams) / rtt;
  const c = Math.min(rate, window, loss);
  if (!Number.isFinite(c)) return null;
  return { bitsPerSecond: c, least: c === loss ? 1 / BINDING_FACTOR : SHORT_OF_MODEL };
}

/** The emulator's lag in one direction when it was the limit, else null. */
export function emulatorLag(link: LinkInfo, dir: 'up' | 'down', measuredBitsPerSecond: number, streams: number): EmulatorLag | null {
  const w = link.emulatorWatch;
  const f: EmulatorDirectionInfo | null | undefined = w?.[dir];
  if (!w || !f || f.activeSeconds <= 0 || f.releasedBytes <= 0) return null;
  const lateShare = f.lateBytes / f.releasedBytes;
  const behindShare = Math.min(1, f.behindSeconds / f.activeSeconds);
  const active = Math.max(w.up?.activeSeconds ?? 0, w.down?.activeSeconds ?? 0);
  const cpuShare = w.cpuSeconds !== null && w.cores ? Math.min(1, w.cpuSeconds / (active * w.cores)) : null;
  const stallShare = Math.min(1, (w.stalledSeconds ?? 0) / active);
  if (lateShare < LATE_SHARE && behindShare < BEHIND_SHARE && (cpuShare ?? 0) < CPU_SHARE && stallShare < STALL_SHARE) return null;
  const model = emulatedCeiling(link, streams);
  if (model !== null && measuredBitsPerSecond >= model.least * model.bitsPerSecond) return null;
  return { watch: w, lateShare, behindShare, cpuShare, stallShare, maxLateMs: f.maxLateMs, modelBitsPerSecond: model?.bitsPerSecond ?? null };
}

/** The signs the emulator fell behind by, in the order the detail names them. */
export function emulatorSigns(lag: EmulatorLag): EmulatorSign[] {
  const w = lag.watch;
  const signs: EmulatorSign[] = [];
  if (lag.stallShare >= STALL_SHARE) signs.push({ kind: 'stalled', share: lag.stallShare });
  if (lag.behindShare >= BEHIND_SHARE) signs.push({ kind: 'behind', share: lag.behindShare });
  if (lag.cpuShare !== null && lag.cpuShare >= CPU_SHARE) signs.push({ kind: 'cpu', share: lag.cpuShare, cores: w.cores });
  if (lag.lateShare >= LATE_SHARE) signs.push({ kind: 'late', share: lag.lateShare, lateMs: w.lateMs, maxLateMs: lag.maxLateMs });
  return signs;
}
