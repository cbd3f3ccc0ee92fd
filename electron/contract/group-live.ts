/**
 * The live aggregate of a multi-peer run: each peer's bytes per interval index,
 * summed once every peer has reported that index. The same rule as the group
 * document's intervals (docs/multi-peer.md, "unknown is not zero"): while a
 * peer's figure is missing the sum waits, it is never a sum that counts the gap
 * as 0; only after a peer's run has ended do its later intervals count 0 bytes.
 * Shared by the CLI's live lines and the app's live chart, so both say the same.
 * Pure (no Node imports): the renderer uses it too.
 */

/** One aggregate interval: bytes of every peer, ending at the latest peer's `t` (seconds since its start). */
export interface GroupLiveInterval {
  index: number;
  bytes: number;
  /** End of the interval: the latest of the peers' `t` for this index. */
  t: number;
  /** Since the previous aggregate interval's end. */
  seconds: number;
}

export class GroupIntervalSum {
  private readonly byPeer: Map<number, { bytes: number; t: number }>[];
  /** The last index each ended peer reported (its later intervals count 0), or undefined while it runs. */
  private readonly endedAt: (number | undefined)[];
  private next = 1;
  private lastT = 0;

  constructor(readonly peerCount: number) {
    this.byPeer = Array.from({ length: peerCount }, () => new Map());
    this.endedAt = new Array<number | undefined>(peerCount).fill(undefined);
  }

  /** Peer `peer` moved `bytes` in interval `index`, which ended at `t`; returns the aggregate intervals now complete. */
  add(peer: number, index: number, bytes: number, t: number): GroupLiveInterval[] {
    this.byPeer[peer]?.set(index, { bytes, t });
    return this.drain();
  }

  /** Peer `peer`'s run is over (its final sample came): from now on its missing intervals count 0 bytes. */
  end(peer: number): GroupLiveInterval[] {
    if (peer < 0 || peer >= this.peerCount) return [];
    this.endedAt[peer] = Math.max(0, ...(this.byPeer[peer]?.keys() ?? []));
    return this.drain();
  }

  private drain(): GroupLiveInterval[] {
    const out: GroupLiveInterval[] = [];
    for (;;) {
      const index = this.next;
      const figures = this.byPeer.map((m, i) => m.get(index) ?? (index > (this.endedAt[i] ?? Infinity) ? null : undefined));
      if (figures.some((f) => f === undefined)) return out;
      const known = figures.filter((f): f is { bytes: number; t: number } => f !== null && f !== undefined);
      // Every peer has ended before this index: nothing more will come.
      if (known.length === 0) return out;
      const t = Math.max(this.lastT, ...known.map((f) => f.t));
      out.push({ index, bytes: known.reduce((a, f) => a + f.bytes, 0), t, seconds: t - this.lastT });
      this.lastT = t;
      this.next++;
    }
  }
}
