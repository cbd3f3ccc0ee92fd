/**
 * The ttcp receiver line: `536870912 bytes in 37.03 real seconds = 110.62 Mbit/sec`.
 * ttcp's Mbit is 2^20 bits (it divides by 1024 twice), and its rate comes from
 * the unrounded time: 536,870,912 bytes over 37.027 s prints 37.03 and 110.62.
 */
import type { LonghaulResult } from '../contract/result.js';
import { partialLabel } from '../contract/partial-text.js';

const TTCP_MBIT_BITS = 1024 * 1024;

/** One ttcp line, or a line saying why there is no rate. */
export function ttcpLine(bytes: number, seconds: number | null): string {
  if (seconds === null || !(seconds > 0)) return `${bytes} bytes in unknown real seconds = unknown Mbit/sec`;
  const mbitPerSec = (bytes * 8) / TTCP_MBIT_BITS / seconds;
  return `${bytes} bytes in ${seconds.toFixed(2)} real seconds = ${mbitPerSec.toFixed(2)} Mbit/sec`;
}

/**
 * The ttcp view of a result: the total (receiver bytes over the wall clock,
 * first byte to last byte), then one line per stream when there are several,
 * and a comment line when the run is partial.
 */
export function formatTtcp(r: LonghaulResult): string {
  const lines = [ttcpLine(r.total.bytes, r.total.seconds)];
  if (r.streams.length > 1) {
    for (const s of r.streams) lines.push(`stream ${s.id}: ${ttcpLine(s.bytes, s.seconds)}`);
  }
  // A partial run's streams, each over its seconds measured, as comments like the total's below.
  const partialStreams = r.streams.length > 1 ? r.streams.flatMap((s) => (s.partialRate ? [{ id: s.id, bytes: s.bytes, p: s.partialRate }] : [])) : [];
  lines.push('# ttcp units: Mbit = 2^20 bits (1,048,576); bytes received; real seconds = first to last byte');
  if (r.partial) lines.push(`# PARTIAL: ${r.partialReason ?? 'the run ended early'}`);
  // A partial run's rate over the seconds measured, labelled (the line above stays ttcp's first to last byte).
  const p = r.total.partialRate;
  if (p) lines.push(`# ${partialLabel(p)}: ${ttcpLine(r.total.bytes, p.seconds)}`);
  for (const s of partialStreams) lines.push(`# stream ${s.id}, ${partialLabel(s.p)}: ${ttcpLine(s.bytes, s.p.seconds)}`);
  return lines.join('\n') + '\n';
}
