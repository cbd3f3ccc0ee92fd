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

/** Where a user sets the rate each stream is paced at (-b). */
export function bitrateWhere(door: Door): string {
  return door === 'terminal' ? '--bitrate' : 'the Bitrate per stream setting on the Test step';
}

/** Where a user asks for a segment size (--mss): `with X`, `without X` / `with X left empty`, `a larger X`. */
export function mssWhere(door: Door): { asked: string; without: string; larger: string } {
  return door === 'terminal'
    ? { asked: 'with --mss', without: 'without --mss', larger: 'with a larger --mss' }
    : { asked: 'in MSS on the Test step', without: 'with MSS empty on the Test step', larger: 'with a larger MSS on the Test step' };
}

/** How a user asks for the path's capacity (Longhaul's tuned run). */
export function capacityWhere(door: Door): string {
  return door === 'terminal' ? '--capacity' : '"Measure the path"';
}
