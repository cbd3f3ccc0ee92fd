/**
 * How every Longhaul process sizes its JavaScript heap (docs/results.md,
 * "Memory"). V8 lets its old generation grow by up to about 4× the live heap
 * before a full GC, then gives the pages back: a long run's RSS saw-tooths by
 * tens of MiB while what Longhaul holds stays flat (docs/measurements.md#gc-step).
 * A fixed growing step makes full GCs smaller and more
 * frequent and the RSS flat. Set at run time, so the desktop app's main
 * process (which Longhaul does not start) gets it too.
 */
import v8 from 'node:v8';

/** The old generation may grow this much (percent of the live heap after a full GC) before the next one. */
const HEAP_GROWING_PERCENT = 10;

/**
 * Node flags for the long-lived `longhaul` processes Longhaul forks (a loopback
 * run's responder, the link proxy): a new space of fixed size, so a quiet
 * spell does not shrink it and the next burst grow it back
 * (docs/measurements.md#gc-step). 16 MB is V8's own ceiling on 64-bit machines.
 * Heap sizes cannot change once a process runs, hence flags at its start.
 */
export const FORK_EXEC_ARGV: readonly string[] = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

let applied = false;

/** Apply the schedule to this process (once; later calls do nothing). */
export function applyGcSchedule(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
