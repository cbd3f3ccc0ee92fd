/**
 * One direction of the emulated link as a UDP datagram meets it (issue 38): the same stage chain the
 * TCP relay runs (link-settings.ts), read for what each stage means to a packet nobody retransmits.
 * Stages apply in the chain's order:
 *
 * - `loss`: the datagram is dropped, a real drop (TCP's recovery model has nothing to model here):
 *   each datagram with probability `lossRatio`, or exactly every round(1 / lossRatio)-th (`periodic`);
 * - `rate`: serialized on the direction's one wire clock (stages/rate.ts's, shared with every TCP
 *   connection through the link, the control channel's included) with 42 header bytes per datagram
 *   (Ethernet 14, IPv4 20, UDP 8; none when the stage counts payload only, `wireOverheadBytes: 0`). Its
 *   queue (the stage's `queueBytes`: default 100 ms of the rate, at least 64 KiB) drops the arriving
 *   datagram when full, as a router's tail-drop queue does, where TCP's relay holds the sender instead;
 * - `delay`: one-way delay ± jitter, never reordering (delay.ts's rule), the delay line bounded by the
 *   stage's `queueBytes` (what the relay itself may hold: beyond it the emulator drops, and says so);
 * - `window`, `slowstart`: TCP's window and its growth: nothing to a datagram.
 */
import { UDP_WIRE_OVERHEAD_BYTES } from '../../contract/wire.js';
import { type StageConfig } from '../stage.js';
import { seededRandom } from '../../contract/seeded-random.js';
import type { DelayConfig } from '../stages/delay.js';
import type { LossConfig } from '../stages/loss.js';
import { rateQueueBytes, wireClock, type RateConfig } from '../stages/rate.js';

/** Why a datagram did not cross: the link's loss, the link's queue full, or the emulator's own bound on what it holds. */
type DatagramDrop = 'loss' | 'queue' | 'held';

/** One datagram's fate: when it reaches the far end (ms, the proxy's clock), or why it never does. */
export type DatagramFate = { atMs: number } | { drop: DatagramDrop };

type Step = (bytes: number, t: number, heldBytes: number) => number | DatagramDrop;

function lossStep(c: LossConfig, random: () => number): Step {
  const every = Math.max(1, Math.round(1 / c.lossRatio));
  const draw = c.seed === undefined ? random : seededRandom(c.seed);
  let n = 0;
  return (_bytes, t) => {
    n += 1;
    const lost = c.pattern === 'periodic' ? c.lossRatio > 0 && n % every === 0 : draw() < c.lossRatio;
    return lost ? 'loss' : t;
  };
}

function rateStep(c: RateConfig, shared: Map<string, unknown>): Step {
  const wire = wireClock(shared);
  const overhead = c.wireOverheadBytes === 0 ? 0 : UDP_WIRE_OVERHEAD_BYTES;
  const limit = rateQueueBytes(c);
  const bytesPerMs = c.rateBitsPerSec / 8 / 1000;
  return (bytes, t) => {
    const wireBytes = bytes + overhead;
    // What waits for the wire now, in bytes: the time until it is free, at the rate.
    const waiting = Math.max(0, wire.nextFreeMs - t) * bytesPerMs;
    if (waiting + wireBytes > limit) return 'queue';
    wire.nextFreeMs = Math.max(t, wire.nextFreeMs) + wireBytes / bytesPerMs;
    return wire.nextFreeMs;
  };
}

function delayStep(c: DelayConfig, random: () => number): Step {
  const draw = c.seed === undefined ? random : seededRandom(c.seed);
  let lastMs = -Infinity;
  return (bytes, t, heldBytes) => {
    if (heldBytes + bytes > c.queueBytes) return 'held';
    const jitter = c.jitterMs > 0 ? (draw() * 2 - 1) * c.jitterMs : 0;
    lastMs = Math.max(t + Math.max(0, c.delayMs + jitter), lastMs);
    return lastMs;
  };
}

export class DatagramLink {
  private readonly steps: Step[];

  /** `shared`: the direction's state every connection through the link shares (its wire clock). */
  constructor(chain: readonly StageConfig[], shared: Map<string, unknown>, random: () => number = Math.random) {
    this.steps = chain.flatMap((c): Step[] => {
      if (c.type === 'loss') return [lossStep(c as LossConfig, random)];
      if (c.type === 'rate') return [rateStep(c as RateConfig, shared)];
      if (c.type === 'delay') return [delayStep(c as DelayConfig, random)];
      return [];
    });
  }

  /** A datagram of `bytes` (UDP payload) arrived at `nowMs`; `heldBytes`: what this relay holds for this direction now. */
  admit(bytes: number, nowMs: number, heldBytes: number): DatagramFate {
    let t = nowMs;
    for (const step of this.steps) {
      const r = step(bytes, t, heldBytes);
      if (typeof r !== 'number') return { drop: r };
      t = r;
    }
    return { atMs: t };
  }
}
