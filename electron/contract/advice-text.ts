/**
 * The advice in words: the summary's and the HTML report's lines (the terminal's words, as saved), and the
 * app's words for a row about one of Longhaul's own controls, which the app names as its control on the
 * Test or Link step instead of the terminal's flag (contract/door.ts).
 */
import type { Advice, LonghaulControl } from './advice.js';
import type { Door } from './door.js';
import type { LonghaulResult } from './result.js';
import { groupDigits } from './units.js';

/** The app's words for one control: the setting, what it needs, how to change it. */
interface ControlWords {
  setting: string;
  needed?: string;
  how: string;
}

const LINK_FIELD = { rate: 'Link rate (each way)', loss: 'Loss (modelled)', window: 'Window per stream' } as const;

function appWords(c: LonghaulControl, a: Advice): ControlWords {
  switch (c.kind) {
    case 'window':
      return {
        setting: "TCP window per stream end on the Test step (set on every stream end's socket, which turns the OS's autotuning off for it)",
        how:
          c.bytes === null
            ? 'measure the path first (tick "Measure the path" on the Test step), or leave the window empty so each OS autotunes within the settings below'
            : `${groupDigits(c.bytes)} bytes in TCP window per stream end${c.streams ? ` and Parallel streams at ${c.streams}` : ''} on the Test step, or leave it empty so each OS autotunes within the settings below`,
      };
    case 'bitrate':
      return {
        setting: "Bitrate per stream on the Test step (the senders' pacing)",
        needed: 'no pacing (Bitrate per stream empty) to measure what the path and the PCs carry, or a higher rate',
        how: 'clear Bitrate per stream on the Test step and run again',
      };
    case 'udp-rate':
      return {
        setting: 'Bitrate per stream on the Test step (the rate each UDP stream sends at)',
        needed: `a ${c.change} rate, e.g. ${c.rate} per stream, ${c.change === 'higher' ? 'until loss passes 1 %: the highest rate below that is what the path carries' : 'until loss stays under 1 %'}`,
        how: `${c.rate} in Bitrate per stream on the Test step and run again`,
      };
    case 'udp-buffer':
      return {
        setting: "Receive buffer per stream on the Test step (each UDP stream's receiving socket)",
        needed: `at least ${groupDigits(c.bytes)} bytes, and net.core.rmem_max at least that on the receiving PC (Linux caps the buffer there)`,
        how: `${groupDigits(c.bytes)} bytes in Receive buffer per stream on the Test step and run again; on the receiving PC: sudo sysctl -w net.core.rmem_max=${c.bytes}`,
      };
    case 'buffer':
      return {
        setting: 'the sending application: how much it writes per call and how soon it writes again (Longhaul: Buffer per write/read on the Test step)',
        how: `${groupDigits(c.bytes)} bytes in Buffer per write/read on the Test step; for other applications their own buffer or block-size option`,
      };
    case 'seconds':
      return {
        setting: a.setting,
        how: `a duration of ${c.seconds} s on the Test step, or Parallel streams at ${c.streams} so each needs a smaller window`,
      };
    case 'streams':
      return {
        setting: a.setting,
        how: `run again with Parallel streams at ${c.streams} on the Test step (now ${c.now}) so more data threads share the work; close other programs; on a VM, give it more cores`,
      };
    case 'second-pc':
      return {
        setting: a.setting,
        how: `open Longhaul on a second PC, pair it on the Partner step and run to it; here, run again with Parallel streams at ${c.streams} (now ${c.now}): a total that stays is this PC's limit`,
      };
    case 'emulator':
      return {
        setting: a.setting,
        how: "close what else runs on this PC; lower the Link step's rate or the Parallel streams; or put the emulator on a PC of its own between the two ends (longhaul proxy: the app has no control for it)",
      };
    case 'link':
      return {
        setting: `the emulated link's ${LINK_FIELD[c.field]} on the Link step`,
        how:
          c.field === 'rate'
            ? 'to model a faster path: a higher Link rate on the Link step, the rest of the link as it was'
            : c.field === 'loss'
              ? 'to model a cleaner path: a lower Loss on the Link step; on a real path: find and fix the loss, or more streams share it'
              : `${c.bytes !== null ? `${groupDigits(c.bytes)} bytes` : 'a larger window'} in Window per stream on the Link step, the rest of the link as it was`,
      };
  }
}

/** The row's setting at a door. */
export function adviceSetting(a: Advice, door: Door): string {
  return door === 'app' && a.control ? appWords(a.control, a).setting : a.setting;
}

/** What the row needs at a door. */
export function adviceNeeded(a: Advice, door: Door): string {
  return (door === 'app' && a.control ? appWords(a.control, a).needed : undefined) ?? a.neededValue;
}

/** How to make the change at a door. */
export function adviceHow(a: Advice, door: Door): string {
  return door === 'app' && a.control ? appWords(a.control, a).how : a.how;
}

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
