/**
 * Which measured path a sweep's run belongs to (plan.capacity): the link preset it goes through, its path
 * (direct or relay) and the direction the tuned run measures (reverse: responder to controller; forward and
 * bidir: controller to responder, as `--capacity` measures them). Pure: the runner and the reports share it.
 */
import type { CapacityInfo } from './capacity-info.js';
import { capacityProgressText } from './capacity.js';
import { pathDirectionLabel } from './direction.js';
import type { SweepCapacity, SweepCellSettings, SweepFile } from './sweep.js';

type PathKey = Pick<SweepCapacity, 'link' | 'path' | 'direction'>;

/** The path a cell's runs cross, as a sweep's capacity entry names it. */
export function pathOf(s: SweepCellSettings): PathKey {
  return { link: s.link, path: s.path, direction: s.params.direction === 'reverse' ? 'responderToController' : 'controllerToResponder' };
}

function same(a: PathKey, b: PathKey): boolean {
  return a.link === b.link && a.path === b.path && a.direction === b.direction;
}

/** The figure measured for this cell's path, or null: not measured yet. */
export function measuredFor(file: Pick<SweepFile, 'capacity'>, s: SweepCellSettings): SweepCapacity | null {
  const key = pathOf(s);
  return (file.capacity ?? []).find((c) => same(c, key)) ?? null;
}

/** Whether a measurement stands for the rest of the sweep: a figure (a floor included, marked so); a failure is measured again next time. */
export function keepsForSweep(info: CapacityInfo): boolean {
  return info.payloadBitsPerSecond !== null && !info.failure;
}

/** `file` with `entry` recorded (a path already measured keeps its first figure). */
export function withCapacity<F extends Pick<SweepFile, 'capacity'>>(file: F, entry: SweepCapacity): F {
  if ((file.capacity ?? []).some((c) => same(c, entry))) return file;
  return { ...file, capacity: [...(file.capacity ?? []), entry] };
}

/** `Path (no emulator, controller → responder), measured after run 1: 18.9 Mbit/s of payload (…)`: the console's and the Sweep screen's words. */
export function measuredPathText(c: SweepCapacity): string {
  const link = c.link === null ? (c.path === 'relay' ? 'relay on this PC' : 'no emulator') : `link ${c.link}`;
  const figure = capacityProgressText({ state: 'done', info: c.info }).replace(/^path measured: /, '');
  return `Path (${link}, ${pathDirectionLabel(c.direction)}), measured after run ${c.sequence + 1}: ${figure}`;
}
