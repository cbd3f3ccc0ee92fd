/**
 * The link emulator's watch on itself (result.link.emulatorWatch) in one line,
 * for the CLI's run output and the Results screen alike. Pure: the renderer
 * imports it too.
 */
import type { EmulatorDirectionInfo, EmulatorWatchInfo } from './link-info.js';

const pct = (x: number): string => `${(x * 100).toFixed(x > 0 && x < 0.1 ? 1 : 0)} %`;

function direction(name: string, d: EmulatorDirectionInfo | null, lateMs: number): string | null {
  if (!d || d.activeSeconds <= 0) return null;
  const late = d.releasedBytes > 0 ? d.lateBytes / d.releasedBytes : 0;
  const behind = Math.min(1, d.behindSeconds / d.activeSeconds);
  return `${name} ${pct(late)} of bytes more than ${lateMs} ms late (latest ${Math.round(d.maxLateMs)} ms), more waiting at its reader than a read took ${pct(behind)} of the time`;
}

/** E.g. `native relay thread; up 0.0 % of bytes more than 10 ms late (latest 2 ms), more waiting at its reader than a read took 0 % of the time; proxy CPU 3.1 s`. */
export function describeEmulatorWatch(w: EmulatorWatchInfo): string {
  const relay = w.relay === 'native' ? 'native relay thread' : `JavaScript relay (${w.relayReason ?? 'no native relay'})`;
  const dirs = [direction('up', w.up, w.lateMs), direction('down', w.down, w.lateMs)].filter((x): x is string => x !== null);
  const cpu = w.cpuSeconds === null ? null : `proxy CPU ${w.cpuSeconds.toFixed(1)} s${w.cores ? ` (this PC has ${w.cores} cores)` : ''}`;
  const stalled = w.stalledSeconds ? `did not run for ${w.stalledSeconds.toFixed(2)} s (ticks over ${w.stallMs ?? 10} ms late)` : null;
  return [relay, ...dirs, ...(cpu ? [cpu] : []), ...(stalled ? [stalled] : [])].join('; ');
}
