/**
 * The group limiter in words, from its data (engine/group/group-aggregate.ts decides): which peer
 * was the slower one, and whether this PC's shared side held the peers back. Written once here and
 * saved as `diagnosis.sentence` for the readers.
 */
import { peerLabel, type GroupDiagnosis, type GroupPeer } from './group.js';
import { formatRate } from './units.js';

function groupDiagnosisSentence(d: Omit<GroupDiagnosis, 'sentence'>, peers: GroupPeer[]): string {
  const parts: string[] = [];
  const slow = peers.find((p) => p.index === d.slowestPeer);
  const fast = peers.find((p) => p.index === d.fastestPeer);
  const rated = peers.filter((p) => typeof p.result.total.bitsPerSecond === 'number').length;
  if (slow && fast) {
    parts.push(
      `${peerLabel(slow)} was the slower one: ${formatRate(slow.result.total.bitsPerSecond)} against ${formatRate(fast.result.total.bitsPerSecond)} for ${peerLabel(fast)} (wall-clock, each on its own streams).`,
    );
  } else {
    parts.push(`Only ${rated} of ${peers.length} peers have a measured rate: no comparison between them.`);
  }
  const shares = d.aloneShares ?? [];
  const line = Math.round((d.sharedSideShare ?? 0) * 100);
  if (d.sharedSideSuspected !== null && shares.length === peers.length) {
    const each = peers.map((p, i) => `${peerLabel(p)} ${Math.round((shares[i] ?? 0) * 100)} %`).join(', ');
    parts.push(
      d.sharedSideSuspected
        ? `Every peer fell below ${line} % of what it does alone (${each}): this PC's shared side (its NIC, CPU or bus) is suspected.`
        : `Not every peer fell below ${line} % of what it does alone (${each}): this PC's shared side is not shown to be the limit.`,
    );
  } else {
    parts.push("Whether this PC's shared side (NIC, CPU) limits the group is unknown: that needs each peer's rate when run alone.");
  }
  return parts.join(' ');
}

/** The group limiter's data with its sentence, as saved. */
export function withGroupSentence(d: Omit<GroupDiagnosis, 'sentence'>, peers: GroupPeer[]): GroupDiagnosis {
  return { ...d, sentence: groupDiagnosisSentence(d, peers) };
}
