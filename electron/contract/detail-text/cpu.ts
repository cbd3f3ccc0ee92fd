/** The detail of the CPU's findings: a process or thread near one core, one PC's cores, a starved reader. */
import type { FindingData } from './words.js';
import { figure, measuredText, pct, rttText } from './words.js';

/** cpu-limited/process: a side's process or data thread near one full core. */
export function cpuProcessText(d: FindingData): string {
  const side = d.side ?? 'controller';
  const role = side === d.facts?.senderSide ? 'sending' : 'receiving';
  const b = d.facts?.busiest;
  const what = b ? `its ${b.kind} thread (streams ${b.streams.join(', ')})` : 'its process';
  return `The ${role} side (the ${side}): ${what} used ${pct(figure(d, 'cpuShareOfCore') ?? 0)} of one core while moving ${measuredText(d)}: the CPU is the limit, not the path.`;
}

/** cpu-limited/same-pc: both ends on this PC, its cores busy. */
export function samePcText(d: FindingData): string {
  const cores = figure(d, 'cores');
  const busy = figure(d, 'pcBusyShare') ?? 0;
  const irqShare = figure(d, 'interruptShare');
  const steal = figure(d, 'stealShare');
  const irq =
    irqShare !== null
      ? ` (${pct(irqShare)} of their time in interrupts and softirq${(steal ?? 0) >= 0.005 ? `, ${pct(steal ?? 0)} taken by the hypervisor` : ''})`
      : '';
  const used = (share: number | null): string => (share !== null ? `${pct(share)} of one core` : 'an unknown share');
  const senderBusy = figure(d, 'senderBusyShare');
  const idle = senderBusy !== null && senderBusy < 0.97 ? ` The sender left its socket empty ${pct(1 - senderBusy)} of its time.` : '';
  const waits = d.facts?.threadWaits ?? [];
  // Two threads of one kind (one per stream group) are told apart by their streams.
  const name = (w: (typeof waits)[number]): string =>
    waits.filter((x) => x.kind === w.kind).length > 1
      ? `the ${w.kind} thread (stream${w.streams.length === 1 ? '' : 's'} ${w.streams.join(', ')})`
      : `the ${w.kind} thread`;
  const waitWords = waits.length
    ? ` The data threads waited for a core (ready to run, not running): ${waits.map((w) => `${name(w)} ${pct(w.share)}`).join(', ')} of the transfer.`
    : '';
  return (
    `Both ends ran on this PC, and its ${cores !== null ? `${cores} cores` : 'cores'} were ${pct(busy)} busy over the transfer${irq}${d.facts?.notAllBusy ? ' (not all the time: the threads also waited on each other and for a core)' : ''}; ` +
    `Longhaul's controller used ${used(figure(d, 'controllerCpuShare'))} and its responder ${used(figure(d, 'responderCpuShare'))}, the rest went to the kernel's copying and packet processing and to other programs: ` +
    `measured ${measuredText(d)}, this PC's CPU, shared by both ends and the kernel, is the limit, not the network.${idle}${waitWords}`
  );
}

/** cpu-limited/unmeasured: a fast local run no window explains, its CPU unknown. */
export function cpuUnmeasuredText(d: FindingData): string {
  const what =
    d.facts?.cpuUnknown === 'pc-unmeasured' ? 'both ends ran on this PC, but how busy its cores were was not measured' : 'CPU was not measured in this run';
  return (
    `Measured ${measuredText(d)} at RTT ${rttText(d)} with the socket kept full and no window binding: on a path this short, copying the bytes on the PCs' cores is the likely limit, ` +
    `not the path; ${what}, so this is unconfirmed.`
  );
}

/** receiver-limited/cpu-starved: the receiving side's reader always had work and mostly waited for a core. */
export function readerStarvedText(d: FindingData): string {
  const s = d.facts?.readerStreams ?? [];
  const streams = `stream${s.length === 1 ? '' : 's'} ${s.join(', ')}`;
  return (
    `The receiving side (the ${d.side ?? 'receiver'}) was starved of CPU: its receiver thread (${streams}) had data to read nearly all the time ` +
    `but ran only ${pct(figure(d, 'cpuShareOfCore') ?? 0)} of one core and waited for a core ${pct(figure(d, 'readerWaitShare') ?? 0)} of the transfer (a CPU quota, or other work on that PC); ` +
    `measured ${measuredText(d)}: the receiving application's CPU did not keep up, not the path or its buffers.`
  );
}
