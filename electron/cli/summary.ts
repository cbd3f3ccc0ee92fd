/**
 * The block printed at the end of every CLI run: per stream and total, with
 * both throughput conventions named, and partial runs flagged loudly.
 */
import type { LonghaulResult, TotalResult } from '../contract/result.js';
import { formatBytes, formatRate, groupDigits } from '../util/units.js';
import { formatTcpSummary } from './tcp-summary.js';

function seconds(s: number | null): string {
  return s === null ? 'unknown' : `${s.toFixed(3)} s`;
}

function totalLines(label: string, t: TotalResult): string[] {
  return [
    `${label}: ${groupDigits(t.bytes)} bytes (${formatBytes(t.bytes)}) received in ${seconds(t.seconds)}`,
    `  wall-clock aggregate (total bytes / first byte to last byte): ${formatRate(t.bitsPerSecond)}`,
    `  per-stream sum (each stream over its own time):               ${formatRate(t.streamSumBitsPerSecond)}`,
  ];
}

export function formatSummary(r: LonghaulResult): string {
  const lines: string[] = [];
  const p = r.params;
  const limit = p.bytes !== null ? `${groupDigits(p.bytes)} bytes` : `${p.seconds} s`;
  lines.push(`Longhaul ${r.controller.hostname} -> ${r.responder.hostname} (${r.responder.address}): ${p.streams} stream(s), ${p.direction}, ${limit}, ${groupDigits(p.bufferBytes)}-byte buffers`);
  lines.push(`Window: ${r.window.requestedBytes === null ? r.window.note : `${groupDigits(r.window.requestedBytes)} bytes requested, ${r.window.note}`}`);
  lines.push('');
  lines.push(`${'stream'.padEnd(7)}${'from'.padEnd(12)}${'bytes sent'.padStart(16)}${'bytes received'.padStart(16)}${'seconds'.padStart(10)}${'rate'.padStart(16)}`);
  for (const s of r.streams) {
    const err = s.send?.error ?? s.receive?.error;
    lines.push(
      `${String(s.id).padEnd(7)}${s.sender.padEnd(12)}${groupDigits(s.send?.bytes ?? 0).padStart(16)}${groupDigits(s.bytes).padStart(16)}` +
        `${(s.seconds === null ? 'unknown' : s.seconds.toFixed(3)).padStart(10)}${formatRate(s.bitsPerSecond).padStart(16)}${err ? `  ! ${err.message}` : ''}`,
    );
  }
  lines.push('');
  if (r.directions.controllerToResponder && r.directions.responderToController) {
    lines.push(...totalLines('controller -> responder', r.directions.controllerToResponder));
    lines.push(...totalLines('responder -> controller', r.directions.responderToController));
  } else {
    lines.push(...totalLines('Total', r.total));
  }
  lines.push(...formatTcpSummary(r));
  if (r.partial) {
    lines.push('');
    lines.push(`PARTIAL RESULT: ${r.partialReason ?? 'the run ended early'}`);
    for (const e of r.errors) lines.push(`  ${e.code}: ${e.message}`);
  }
  return lines.join('\n') + '\n';
}
