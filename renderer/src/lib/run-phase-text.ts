/**
 * The Run screen's phase line and progress, from the click on Start to the
 * results: what the run is doing in words a test engineer uses, and how far
 * the data transfer is. Set-up (starting the link emulator, connecting,
 * opening streams) has no measurable progress: the bar is then indeterminate,
 * and the elapsed time starts with the data, not with the click (on a 1.3 s
 * satellite link the set-up alone takes ~5 s).
 */
import type { RunPhase, UiRunParams } from '../../../electron/contract/api.js';
import { formatBytes } from '../../../electron/contract/units.js';

/** A run's phase as the Run screen shows it: the engine's, or 'link' while the host starts the link emulator (before the engine's first). */
export type LivePhase = RunPhase | 'link';

interface PhaseContext {
  /** The partner as the user knows it ("lab-7:5211", "this PC"). */
  partner: string;
  params: UiRunParams | null;
  /** Seconds of data transfer so far (the samples' clock), bytes counted so far by the view shown. */
  elapsedSeconds: number;
  bytes: number;
}

/** Stream ends a run opens: N, or N each way. */
function streamText(p: UiRunParams | null): string {
  if (!p) return 'the data streams';
  const n = p.direction === 'bidir' ? p.streams * 2 : p.streams;
  return `${n} stream${n === 1 ? '' : 's'}${p.direction === 'bidir' ? ` (${p.streams} each way)` : ''}`;
}

/** Bytes the views count for a byte-limited run: the limit is per direction, a both-ways view counts both. */
function targetBytes(p: UiRunParams | null): number | null {
  if (!p || p.bytes === null) return null;
  return p.direction === 'bidir' ? p.bytes * 2 : p.bytes;
}

/** The phase in words, without the running figures (what the live region announces). */
export function phaseName(phase: LivePhase, ctx: Pick<PhaseContext, 'partner' | 'params'>): string {
  switch (phase) {
    case 'link':
      return 'Setting up the emulated link…';
    case 'hello':
      return `Connecting to ${ctx.partner}…`;
    case 'params':
      return 'Agreeing on the test settings…';
    case 'streams':
      return `Opening ${streamText(ctx.params)}…`;
    case 'start':
      return 'Starting the data transfer…';
    case 'running':
      return 'Running';
    case 'results':
      return 'Collecting results from both ends…';
    case 'done':
      return 'Done';
    case 'failed':
      return 'Failed';
    case 'capacity':
      return "Measuring the path: Longhaul's own tuned run (a few seconds; longer on a long round trip)…";
  }
}

/** The phase line: while running, how far: "Running: 12 of 30 s" or "Running: 4.2 MB of 10 MB". */
export function phaseLine(phase: LivePhase, ctx: PhaseContext): string {
  if (phase !== 'running') return phaseName(phase, ctx);
  const p = ctx.params;
  if (p?.seconds !== null && p?.seconds !== undefined) return `Running: ${Math.min(Math.floor(ctx.elapsedSeconds), p.seconds)} of ${p.seconds} s`;
  const target = targetBytes(p);
  if (target !== null) return `Running: ${formatBytes(ctx.bytes)} of ${formatBytes(target)}`;
  return 'Running';
}

/** The data transfer's progress 0–1, or null while there is none to measure (set-up: an indeterminate bar). */
export function phaseProgress(phase: LivePhase, ctx: PhaseContext): number | null {
  if (phase === 'results' || phase === 'done') return 1;
  if (phase !== 'running') return null;
  const p = ctx.params;
  if (p?.seconds) return Math.min(1, ctx.elapsedSeconds / p.seconds);
  const target = targetBytes(p);
  return target ? Math.min(1, ctx.bytes / target) : null;
}
