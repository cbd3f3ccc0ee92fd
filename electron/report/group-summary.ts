/**
 * The end-of-run summary of a multi-peer run: each peer's own block (the
 * single-run summary, unchanged), then the aggregate under the three named
 * conventions and the group's diagnosis. Unknown is printed as "unknown".
 */
import { GROUP_ROLE_TEXT, peerLabel, type GroupTotal, type LonghaulGroupResult, type SumOf } from '../contract/group.js';
import { sumOfText } from '../contract/group-text.js';
import { partialLabel, shownRate } from '../contract/partial-text.js';
import { printable } from '../util/printable.js';
import { formatBytes, formatRate, groupDigits } from '../contract/units.js';
import { formatSummary, type SummaryExtras } from './summary-block.js';

function seconds(s: number | null): string {
  return s === null ? 'unknown' : `${s.toFixed(3)} s`;
}

/** The aggregate lines of one direction (or of the whole group). */
function groupTotalLines(label: string, t: GroupTotal): string[] {
  // What each sum added (a partial peer or stream adds its rate over the seconds measured); groups saved before it was kept say nothing.
  const of = (s: SumOf | undefined, what: 'peer' | 'stream'): string => (s ? ` (${sumOfText(s, what)})` : '');
  return [
    `${label}: ${groupDigits(t.bytes)} bytes (${formatBytes(t.bytes)}, decimal) received in ${seconds(t.seconds)} (group clock)`,
    `  wall-clock aggregate (all bytes x 8 / first byte to last byte, all peers): ${formatRate(t.bitsPerSecond)}`,
    `  per-peer sum (each peer's wall-clock rate, added: the AAI "aggregate"):    ${formatRate(t.peerSumBitsPerSecond)}${of(t.peerSumOf, 'peer')}`,
    `  per-stream sum (each stream over its own time, PetaBumps "Total"):        ${formatRate(t.streamSumBitsPerSecond)}${of(t.streamSumOf, 'stream')}`,
  ];
}

/** The aggregate block alone (after the peers' blocks). */
function formatGroupAggregate(g: LonghaulGroupResult): string {
  const role = g.peers[0]?.role ?? 'sender';
  const skew = g.startSkewSeconds === null ? 'the common start never happened' : `started within ${(g.startSkewSeconds * 1000).toFixed(3)} ms of each other`;
  const lines = [`Group ${g.id}: ${g.peers.length} peers, ${GROUP_ROLE_TEXT[role].long}; ${skew}`, ''];
  lines.push(
    `${'peer'.padEnd(40)}${'bytes received'.padStart(16)}${'seconds'.padStart(10)}${'wall-clock'.padStart(16)}${'per-stream sum'.padStart(16)}  status`,
  );
  for (const p of g.peers) {
    const t = p.result.total;
    const name = `${p.index + 1} ${printable(p.hostname, 40)} (${p.address})`;
    // A partial peer: the seconds measured and its rate over them, labelled as its own summary does.
    const shown = shownRate(t);
    const status = p.result.partial ? `PARTIAL${t.partialRate ? ` (${partialLabel(t.partialRate)})` : ''}` : 'complete';
    lines.push(
      `${name.padEnd(40)}${groupDigits(t.bytes).padStart(16)}${(shown.seconds === null ? 'unknown' : shown.seconds.toFixed(3)).padStart(10)}` +
        `${formatRate(shown.bitsPerSecond).padStart(16)}${formatRate(t.streamSumBitsPerSecond).padStart(16)}  ${status}`,
    );
  }
  lines.push('');
  const c2r = g.directions.controllerToResponder;
  const r2c = g.directions.responderToController;
  if (c2r && r2c) {
    lines.push(...groupTotalLines('Aggregate, this PC -> peers', c2r), ...groupTotalLines('Aggregate, peers -> this PC', r2c));
  } else {
    lines.push(...groupTotalLines('Aggregate', g.total));
  }
  lines.push('', `Group limiter: ${printable(g.diagnosis.sentence, 1000)}`);
  if (g.partial) {
    lines.push('', `PARTIAL GROUP: ${printable(g.partialReason ?? 'a peer ended early', 1000)}`);
    for (const e of g.errors.filter((x) => x.peer === null)) lines.push(`  ${e.code}: ${printable(e.message)}`);
  }
  return lines.join('\n') + '\n';
}

/** Every peer's block, headed by its name, then the aggregate block. */
export function formatGroupSummary(g: LonghaulGroupResult, extras: SummaryExtras = {}): string {
  const blocks = g.peers.map((p) => `=== ${peerLabel(p)} ===\n${formatSummary(p.result, extras)}`);
  return [...blocks, `=== all ${g.peers.length} peers ===\n${formatGroupAggregate(g)}`].join('\n');
}
