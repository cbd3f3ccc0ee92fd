/**
 * The console log (PetaBumps layout) of a multi-peer run: each peer's own log
 * (console-log.ts, unchanged) under its name, then an aggregate table with one
 * thread per peer. Its "Total Throughput" is the PetaBumps sum of the rows'
 * rates, here the per-peer sum; the line under it gives the group's wall clock.
 */
import { peerLabel, type LonghaulGroupResult } from '../contract/group.js';
import { formatConsoleLog } from './console-log.js';
import { formatPetaBumpsTable, UNITS_LINE } from './petabumps-table.js';

export function formatGroupConsoleLog(g: LonghaulGroupResult): string {
  const peers = g.peers.map((p) => `=== ${peerLabel(p)} ===\n${formatConsoleLog(p.result)}`);
  const status = g.partial ? `PARTIAL: ${g.partialReason ?? 'a peer ended early'}` : 'complete';
  const skew = g.startSkewSeconds === null ? 'never started together' : `start skew ${(g.startSkewSeconds * 1000).toFixed(3)} ms`;
  const aggregate = [
    `=== all ${g.peers.length} peers (Thread = peer number) ===`,
    `Group ${g.id}: started ${g.startedAt}, ended ${g.endedAt}, ${skew}, ${status}`,
    UNITS_LINE,
    ...g.peers.map((p) => `Thread ${p.index + 1}: ${peerLabel(p)}`),
    ...formatPetaBumpsTable({
      threads: g.peers.map((p) => {
        const t = p.result.total;
        return { id: p.index + 1, bytes: t.bytes, seconds: t.seconds, ...(t.partialRate ? { partialRate: t.partialRate } : {}) };
      }),
      totalBytes: g.total.bytes,
      totalSeconds: g.total.seconds,
      completions: g.peers.reduce((a, p) => a + p.result.total.completions, 0),
    }),
  ];
  return [...peers, aggregate.join('\n') + '\n'].join('\n');
}
