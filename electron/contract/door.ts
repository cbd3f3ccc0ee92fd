/**
 * Where words are shown. The terminal may name Longhaul's flags and commands; the app names its own
 * controls and never a flag it has a control for. Analysis results are door-neutral data: a door's
 * words are chosen here, at the edge, once.
 */
export type Door = 'terminal' | 'app';

/** How a user gives the path's rate, or has Longhaul measure it. */
export function pathRateWhere(door: Door): string {
  return door === 'terminal'
    ? 'give it with --path-rate, or measure it with --capacity'
    : 'give it in the Test screen\'s "Path rate", or tick "Measure the path"';
}

/** How a user asks for the path's capacity (Longhaul's tuned run). */
export function capacityWhere(door: Door): string {
  return door === 'terminal' ? '--capacity' : '"Measure the path"';
}
