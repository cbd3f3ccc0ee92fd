/**
 * Live progress of a run on the terminal. On a TTY: one line, rewritten at
 * every sample. Otherwise: one plain line per interval (logs, pipes, CI).
 * Rates are the receiver's view (what arrived), per direction.
 */
import type { Side, TcpSample } from '../contract/result.js';
import type { SideSample } from '../engine/data-plane/data-plane.js';
import { planStreams } from '../contract/stream-plan.js';
import { type RunParams } from '../protocol/run-params.js';
import { formatBytes, formatClock, formatJitter, formatLostTotal, formatRate } from '../contract/units.js';
import { intervalRetransText } from '../contract/interval-tcp-text.js';

/** The senders' congestion windows at the line's end, summed over the direction's streams (iperf3's Cwnd, one stream: its own). */
const CWND_HEAD = 'cwnd';

interface DirectionState {
  label: string;
  /** The side whose samples tell what arrived in this direction. */
  receiver: Side;
  ids: Set<number>;
  lastBytes: number;
  lastT: number;
  /** The senders' cumulative retransmits when the previous line was printed (null: unknown then). */
  lastRetrans: number | null;
  /** UDP: the receivers' cumulative lost and expected (lost + arrived) datagrams at the previous line. */
  lastUdp: { lost: number; expected: number };
  /** A plain line waiting for the senders' readings of its tick (they may come after the receiver's sample). */
  held: { index: number; head: string; tail: string } | null;
}

export class LiveProgress {
  private readonly directions: DirectionState[] = [];
  private readonly tty: boolean;

  /**
   * `localHop`: the run goes through the link emulator on this PC, so the kernels' retransmits and cwnd are
   * those of the hop to it, not of the emulated link: their columns are left out rather than shown as the path's.
   */
  constructor(
    params: RunParams,
    private readonly out: NodeJS.WriteStream = process.stdout,
    private readonly localHop = false,
  ) {
    this.tty = Boolean(out.isTTY) && process.env.CI !== 'true';
    this.udp = params.protocol === 'udp';
    this.omitSeconds = params.omitSeconds ?? 0;
    const plan = planStreams(params);
    const both = params.direction === 'bidir';
    for (const sender of ['controller', 'responder'] as const) {
      const ids = new Set(plan.filter((s) => s.sender === sender).map((s) => s.id));
      if (ids.size === 0) continue;
      this.directions.push({
        label: both ? (sender === 'controller' ? 'send' : 'recv') : '',
        receiver: sender === 'controller' ? 'responder' : 'controller',
        ids,
        lastBytes: 0,
        lastT: 0,
        lastRetrans: 0,
        lastUdp: { lost: 0, expected: 0 },
        held: null,
      });
    }
  }

  private headerShown = false;
  /** A UDP run: jitter and lost/total (iperf3's columns) instead of the senders' retransmits and cwnd. */
  private readonly udp: boolean;
  private readonly omitSeconds: number;

  /** The newest TCP reading of each sending stream end, from whichever side sends it. */
  private readonly readings = new Map<number, TcpSample>();

  /** Feed every sample of both sides; only the receiving side's samples are shown. */
  onSample(sample: SideSample, side: Side): void {
    for (const d of this.directions) {
      if (d.receiver === side) continue;
      for (const [id, r] of sample.tcp ?? []) if (d.ids.has(id)) this.readings.set(id, r);
      if (d.held && [...d.ids].every((id) => (this.readings.get(id)?.index ?? 0) >= (d.held?.index ?? 0))) this.release(d);
    }
    const parts: string[] = [];
    for (const d of this.directions) {
      if (d.receiver !== side) continue;
      const bytes = sample.streams.filter((s) => d.ids.has(s[0])).reduce((a, s) => a + s[1], 0);
      const dt = sample.t - d.lastT;
      if (sample.final && bytes === d.lastBytes) continue; // nothing new after the last tick
      const nowRate = dt > 0 ? ((bytes - d.lastBytes) * 8) / dt : null;
      const avgRate = sample.t > 0 ? (bytes * 8) / sample.t : null;
      if (this.tty) {
        parts.push(`${d.label ? d.label + ' ' : ''}now ${formatRate(nowRate)}  avg ${formatRate(avgRate)}  ${formatBytes(bytes)}`);
      } else {
        if (!this.headerShown) {
          this.headerShown = true;
          const tail = this.udp
            ? ` ${'jitter'.padStart(10)} ${'lost/total'.padStart(18)}`
            : this.localHop
              ? ''
              : ` ${'retr'.padStart(8)} ${CWND_HEAD.padStart(10)}`;
          this.out.write(`${'interval'.padEnd(17)} ${'bytes'.padStart(10)} ${'rate (received)'.padStart(16)}${tail}\n`);
        }
        const range = `[${formatClock(d.lastT).padStart(6)}-${formatClock(sample.t).padStart(6)} s]`;
        // --omit: the same rule as the result's (analysis/omit-rule.ts): the interval's middle before S.
        const tag = `${d.label ? ` ${d.label}` : ''}${(d.lastT + sample.t) / 2 < this.omitSeconds ? ' (omitted)' : ''}`;
        this.release(d); // the previous line's readings never came: it goes out with what is known
        if (this.udp) {
          // UDP: the receiver's own counts are the whole line; no sender reading to wait for.
          this.out.write(
            `${range} ${formatBytes(bytes - d.lastBytes).padStart(10)} ${formatRate(nowRate).padStart(16)} ${this.udpCells(d, sample)}${tag}${sample.final ? ' (last)' : ''}\n`,
          );
          d.lastBytes = bytes;
          d.lastT = sample.t;
          continue;
        }
        d.held = {
          index: sample.index,
          head: `${range} ${formatBytes(bytes - d.lastBytes).padStart(10)} ${formatRate(nowRate).padStart(16)}`,
          tail: `${tag}${sample.final ? ' (last)' : ''}`,
        };
        if ([...d.ids].every((id) => (this.readings.get(id)?.index ?? 0) >= sample.index)) this.release(d);
      }
      d.lastBytes = bytes;
      d.lastT = sample.t;
    }
    if (this.tty && parts.length) {
      this.out.write(`\r\x1b[K${sample.t.toFixed(1).padStart(6)} s  ${parts.join('  |  ')}`);
    }
  }

  /** Print the held line with the senders' newest readings. */
  private release(d: DirectionState): void {
    if (!d.held) return;
    const tcp = this.tcpCells(d);
    this.out.write(`${d.held.head}${this.localHop ? '' : ` ${tcp.retr.padStart(8)} ${tcp.cwnd.padStart(10)}`}${d.held.tail}\n`);
    d.held = null;
  }

  /**
   * The direction's retransmits since its previous line and its senders' cwnd summed, from the newest
   * readings: those of the line's own tick, unless they never came. Unknown when any sender's reading is, never 0.
   */
  private tcpCells(d: DirectionState): { retr: string; cwnd: string } {
    const rs = [...d.ids].map((id) => this.readings.get(id));
    const total = rs.every((r) => r?.totalRetransSegments != null) ? rs.reduce((a, r) => a + (r?.totalRetransSegments ?? 0), 0) : null;
    const estimated = rs.some((r) => r?.retransSource === 'estimated');
    const retr = total !== null && d.lastRetrans !== null ? Math.max(0, total - d.lastRetrans) : null;
    d.lastRetrans = total;
    const cwnd = rs.every((r) => r?.sndCwndBytes != null) ? rs.reduce((a, r) => a + (r?.sndCwndBytes ?? 0), 0) : null;
    return { retr: intervalRetransText({ retransSegments: retr, ...(estimated ? { retransSource: 'estimated' as const } : {}) }), cwnd: formatBytes(cwnd) };
  }

  /** The direction's jitter (its streams' mean, at the line's end) and its datagrams lost of expected since the previous line. */
  private udpCells(d: DirectionState, sample: SideSample): string {
    const counts = (sample.udp ?? []).filter(([id]) => d.ids.has(id)).map(([, c]) => c);
    const lost = counts.reduce((a, c) => a + c.lost, 0);
    const expected = counts.reduce((a, c) => a + c.lost + c.datagrams, 0);
    const jitters = counts.map((c) => c.jitterMs).filter((j): j is number => j !== null);
    const dl = Math.max(0, lost - d.lastUdp.lost);
    const de = Math.max(0, expected - d.lastUdp.expected);
    d.lastUdp = { lost, expected };
    const jitter = jitters.length ? formatJitter(jitters.reduce((a, j) => a + j, 0) / jitters.length / 1e3) : 'unknown';
    const lossCell = counts.length ? formatLostTotal(dl, de) : 'unknown';
    return `${jitter.padStart(10)} ${lossCell.padStart(18)}`;
  }

  /** End the live line so the summary starts on a fresh one. */
  end(): void {
    for (const d of this.directions) this.release(d);
    if (this.tty) this.out.write('\n');
  }

  /** A one-line phase message (connecting, opening streams…), on TTYs only. */
  phase(text: string): void {
    if (this.tty) this.out.write(`\r\x1b[K${text}`);
  }

  /** A line of its own in every mode (the path's measurement after the run: it takes seconds, logs must show it). */
  line(text: string): void {
    this.out.write(`${this.tty ? '\r\x1b[K' : ''}${text}\n`);
  }
}
