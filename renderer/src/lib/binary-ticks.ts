/**
 * Ticks for an axis of binary byte sizes (the TCP panel's cwnd): steps of a power
 * of two in B, KiB, MiB or GiB, so the labels read 64 KiB, 128 KiB, 192 KiB …
 * and not Chart.js's decimal round numbers shown in binary units (97.7 KiB).
 */

/** The smallest power-of-two step that covers `max` in at most `count` steps (1 B at least). */
export function binaryStep(max: number, count = 5): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  return 2 ** Math.max(0, Math.ceil(Math.log2(max / count)));
}

/** The axis's top: `max` rounded up to a whole step (the step itself when `max` is 0 or unknown). */
export function binaryTop(max: number, count = 5): number {
  const step = binaryStep(max, count);
  return Number.isFinite(max) && max > step ? Math.ceil(max / step) * step : step;
}

/** Tick values from 0 to the axis's top, one step apart. */
export function binaryTicks(max: number, count = 5): number[] {
  const step = binaryStep(max, count);
  const top = binaryTop(max, count);
  const out: number[] = [];
  for (let v = 0; v <= top; v += step) out.push(v);
  return out;
}

/**
 * A tick's label, its own digits only: `768 KiB`, `1 MiB`, `1.5 MiB`, `0 B` (formatBinaryBytes would write
 * `768.0 KiB`, `1.00 MiB`). Short on purpose: a side axis of a narrow chart gets little width, and a longer
 * label ran under the axis title at 1024 px.
 */
export function binaryTickLabel(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  const [size, name] = units.find(([u]) => Math.abs(bytes) >= u) ?? [1, 'B'];
  return `${Number((bytes / size).toPrecision(4))} ${name}`;
}
