/** The advice lines of the summary and the HTML report: per PC, the setting, now, needed, how, why. */
import type { Advice } from './advice.js';
import type { LonghaulResult } from './result.js';

/** `receiving PC "hostB" (responder, the partner; Linux 6.18)`. */
export function adviceWho(a: Advice): string {
  const sending = (a.direction === 'controllerToResponder') === (a.side === 'controller');
  const role = a.topic === 'longhaul-request' ? 'this run' : a.topic === 'link-emulator' ? 'link emulator on' : sending ? 'sending PC' : 'receiving PC';
  return `${role} "${a.hostname}" (${a.side}, ${a.thisPc ? 'this PC' : 'the partner'}; ${a.os})`;
}

/** The current value in words: what was read, or why it is unknown. */
export function adviceNow(a: Advice): string {
  return (
    a.currentValue ??
    (a.thisPc
      ? 'unknown (Longhaul does not read it on this OS)'
      : 'unknown (the partner did not send it: it does not read it on its OS, or runs an older Longhaul; look on that PC)')
  );
}

/** The lines (empty when there is no advice). */
export function formatAdvice(r: LonghaulResult): string[] {
  const list = r.advice ?? [];
  if (!list.length) return [];
  const lines = ['Advice (Longhaul changes no system setting itself: change it, then run again to see whether it worked):'];
  for (const a of list) {
    lines.push(`  ${adviceWho(a)}: ${a.setting}`);
    lines.push(`    now:   ${adviceNow(a)}`, `    needs: ${a.neededValue}`, `    how:   ${a.how}`, `    why:   ${a.why}`);
  }
  return lines;
}
