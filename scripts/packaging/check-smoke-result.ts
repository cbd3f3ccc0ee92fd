/**
 * The release workflow's smoke check on a packaged app: after
 * `Longhaul.exe …/app.asar/bin/longhaul.js loopback -w 64K -t 3 --json r.json`
 * (ELECTRON_RUN_AS_NODE=1), the result must show that what makes Longhaul more
 * than a byte counter works in the package: the native addon loaded (on Windows,
 * the MSVC prebuild from app.asar.unpacked), set the window on every stream end
 * before the TCP handshake, and read TCP_INFO, so the sending end has RTT and cwnd.
 * Field names: electron/contract/result.ts, docs/results.md.
 *
 * Usage: node dist/scripts/packaging/check-smoke-result.js r.json [--window BYTES]
 * Prints one line per stream end; exits 1 with the reasons when a check fails.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT_SCHEMA, type EndView, type LonghaulResult } from '../../electron/contract/result.js';

/** The window the smoke run asks for (`-w 64K`). */
const SMOKE_WINDOW_BYTES = 64 * 1024;

function endLabel(streamId: number, end: 'send' | 'receive', view: EndView | null): string {
  return `stream ${streamId} ${end} end${view ? ` (${view.side})` : ''}`;
}

/** Every way `doc` falls short of a good smoke run; empty when it passes. */
export function smokeResultProblems(doc: LonghaulResult, windowBytes = SMOKE_WINDOW_BYTES): string[] {
  const problems: string[] = [];
  if (doc.schema !== RESULT_SCHEMA) return [`not a ${RESULT_SCHEMA} document (schema: ${String(doc.schema)})`];
  if (doc.partial) problems.push(`the run is partial: ${doc.partialReason ?? 'no reason given'}`);
  for (const e of doc.errors ?? []) problems.push(`run error ${e.code}: ${e.message}`);
  if (doc.window?.requestedBytes !== windowBytes) problems.push(`window.requestedBytes is ${doc.window?.requestedBytes}, expected ${windowBytes}`);
  if (doc.window?.applied !== true) problems.push(`window.applied is not true: ${doc.window?.note ?? 'no note'}`);
  if (!doc.streams?.length) problems.push('no streams');
  for (const s of doc.streams ?? []) {
    if (!(s.bytes > 0)) problems.push(`stream ${s.id} moved no bytes`);
    for (const end of ['send', 'receive'] as const) {
      const view = s[end];
      const label = endLabel(s.id, end, view);
      if (!view) {
        problems.push(`${label}: no report`);
        continue;
      }
      const socket = view.socket;
      if (!socket) {
        problems.push(`${label}: no socket report`);
        continue;
      }
      if (socket.requestedBytes !== windowBytes) problems.push(`${label}: socket.requestedBytes is ${socket.requestedBytes}, expected ${windowBytes}`);
      if (socket.appliedBeforeHandshake !== true) {
        const why = socket.unavailable.find((u) => u.field === 'window')?.reason;
        problems.push(`${label}: the window was not applied before the handshake${why ? ` (${why})` : ''}`);
      }
    }
    const sender = s.send;
    if (sender) {
      const samples = sender.tcp ?? [];
      const label = endLabel(s.id, 'send', sender);
      if (!samples.some((x) => typeof x.rttUs === 'number' && x.rttUs > 0))
        problems.push(`${label}: no RTT in any TCP_INFO sample (${samples.length} samples)${unavailableNote(doc, sender)}`);
      if (!samples.some((x) => typeof x.sndCwndBytes === 'number' && x.sndCwndBytes > 0))
        problems.push(`${label}: no cwnd in any TCP_INFO sample (${samples.length} samples)${unavailableNote(doc, sender)}`);
    }
  }
  return problems;
}

/** What the run said it could not measure on that side's TCP_INFO, to say why RTT or cwnd is missing. */
function unavailableNote(doc: LonghaulResult, view: EndView): string {
  const reasons = (doc.unavailable ?? [])
    .filter((u) => u.side === view.side && (u.field === 'tcp' || u.field.startsWith('tcp.')))
    .map((u) => `${u.field}: ${u.reason}`);
  return reasons.length ? `; unavailable: ${[...new Set(reasons)].join('; ')}` : '';
}

/** One line per stream end: what a person reading the job log wants to see. */
export function describeEnds(doc: LonghaulResult): string[] {
  const lines: string[] = [];
  for (const s of doc.streams ?? []) {
    for (const end of ['send', 'receive'] as const) {
      const v = s[end];
      const so = v?.socket;
      const last = v?.tcp?.at(-1);
      lines.push(
        `${endLabel(s.id, end, v)}: io ${v?.io ?? '?'}, window ${so?.requestedBytes ?? '?'} B applied before handshake ${so?.appliedBeforeHandshake ?? '?'}, ` +
          `SO_RCVBUF ${so?.rcvBufBytes ?? '?'}, TCP_INFO ${so?.tcpInfoSource ?? 'none'}` +
          (end === 'send' ? `, RTT ${last?.rttUs ?? '?'} µs, cwnd ${last?.sndCwndBytes ?? '?'} B` : ''),
      );
    }
  }
  return lines;
}

function main(): void {
  const file = process.argv[2];
  const at = process.argv.indexOf('--window');
  const windowBytes = at > 0 ? Number(process.argv[at + 1]) : SMOKE_WINDOW_BYTES;
  if (!file || !Number.isInteger(windowBytes) || windowBytes <= 0) {
    console.error('usage: check-smoke-result.js RESULT.json [--window BYTES]');
    process.exit(2);
  }
  const doc = JSON.parse(readFileSync(file, 'utf8')) as LonghaulResult;
  for (const line of describeEnds(doc)) console.log(`  ${line}`);
  const problems = smokeResultProblems(doc, windowBytes);
  if (problems.length > 0) {
    console.error(`smoke check failed (${file}):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`smoke check passed: the window was applied before the handshake on every stream end, RTT and cwnd were read (${file})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
