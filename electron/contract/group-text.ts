/**
 * The group limiter in words, from its data (engine/group/group-aggregate.ts decides): which peer
 * was the slower one, and whether this PC's shared side held the peers back. Written once here and
 * saved as `diagnosis.sentence` for the readers.
 */
import { peerLabel, type GroupDiagnosis, type GroupPeer, type SumOf } from './group.js';
import { rateText, shownRate } from './partial-text.js';

function groupDiagnosisSentence(d: Omit<GroupDiagnosis, 'sentence'>, peers: GroupPeer[]): string {
  const parts: string[] = [];
  const slow = peers.find((p) => p.index === d.slowestPeer);
  const fast = peers.find((p) => p.index === d.fastestPeer);
  const partial = peers.filter((p) => p.result.partial);
  const rated = peers.filter((p) => !p.result.partial && shownRate(p.result.total).bitsPerSecond !== null).length;
  const leftOut = partial.length
    ? ` ${capitalized(joinLabels(partial))} ${partial.length === 1 ? 'is' : 'are'} partial and not compared: a rate over fewer seconds says it stopped, not that it was slower.`
    : '';
  if (slow && fast) {
    parts.push(
      `${peerLabel(slow)} was the slower one: ${rateText(slow.result.total)} against ${rateText(fast.result.total)} for ${peerLabel(fast)} (wall-clock, each on its own streams).${leftOut}`,
    );
  } else {
    parts.push(`Only ${rated} of ${peers.length} peers ran to the end with a measured rate: no comparison between them.${leftOut}`);
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

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function joinLabels(peers: GroupPeer[]): string {
  const labels = peers.map((p) => peerLabel(p));
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** The group limiter's data with its sentence, as saved. */
export function withGroupSentence(d: Omit<GroupDiagnosis, 'sentence'>, peers: GroupPeer[]): GroupDiagnosis {
  return { ...d, sentence: groupDiagnosisSentence(d, peers) };
}

/**
 * What a group's per-peer or per-stream sum adds, in words: `sum of 3 peers, 1 partial` (a partial one added
 * its rate over the seconds measured), `sum of 2 of 3 peers (1 unknown)`.
 */
export function sumOfText(s: SumOf, what: 'peer' | 'stream'): string {
  const noun = `${what}${s.of === 1 ? '' : 's'}`;
  const head = s.added === s.of ? `sum of ${s.of} ${noun}` : `sum of ${s.added} of ${s.of} ${noun} (${s.of - s.added} unknown)`;
  return s.partial ? `${head}, ${s.partial} partial` : head;
}
