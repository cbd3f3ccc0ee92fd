/**
 * Collects what both sides measured during a run (their per-interval samples
 * and their per-stream end reports) and turns it into a `longhaul.result/1`.
 * Works on whatever arrived: a run cut short still yields a result, marked partial.
 *
 * Bounded however long the run: each interval is built as soon as both sides
 * sampled it (or one side has gone past it), and the intervals and TCP_INFO
 * readings go into thinned series (detail-rule.ts), so an hour at -i 0.1
 * holds no more than the first and last ticks and a coarser middle.
 */
import {
  type CpuInfo,
  type CpuUse,
  type EndView,
  type ErrorInfo,
  type IntervalResult,
  type LonghaulResult,
  type PartialRate,
  type PeerClaim,
  type PeerInfo,
  type ResultParams,
  type Side,
  type StreamResult,
  type TcpSample,
  type TotalResult,
  type WindowInfo,
  RESULT_SCHEMA,
} from '../../contract/result.js';
import type { LinkInfo } from '../../contract/link-info.js';
import { printable } from '../../util/printable.js';
import { partnerLabel } from '../../contract/partner-label.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { SideSample } from '../data-plane/data-plane.js';
import { detailInfo, groupingFor, mergeIntervals, mergeTcp } from '../../analysis/detail-rule.js';
import { isOmitted, markOmitted, omitStream, omittedSentBytes } from '../../analysis/omit-rule.js';
import { IntervalBuilder, referenceSide, slimTcp, sumOrNull, type CumulativeSample } from '../data-plane/interval-builder.js';
import type { PlannedStream } from '../../contract/stream-plan.js';
import { adviseResult } from '../../analysis/advice/advise.js';
import type { LocalSettings } from './local-settings.js';
import { attachTcpFields } from './tcp-results.js';
import { cpuUnavailable } from '../data-plane/cpu-use.js';
import { samePcOf } from './same-pc.js';
import { ThinnedSeries, type Grouping } from './thinned-series.js';
import { udpStreamResult, udpTotal } from './udp-results.js';
import { judgeEnds, SampleClaims, type ClaimRules } from './peer-claims.js';

/** Ticks one side may run ahead of the other before its intervals are built without the other's sample (a peer gone quiet). */
export const MAX_LAG_TICKS = 600;
/** The clock offset between the sides is the median over at most this many ticks (the first ones both sampled). */
const OFFSET_TICKS = 1024;

interface RecorderMeta {
  id: string;
  software: string;
  writtenBy: Side;
  controller: PeerInfo;
  responder: PeerInfo;
  params: ResultParams;
  window: WindowInfo;
  startedAt: Date;
  /** Link-emulator hook: the run's link, copied into the result when present. */
  link?: () => LinkInfo;
  /** The path's wire rate the user gave (--path-rate), bit/s: the advice fills it. */
  pathRateBitsPerSec?: number | null;
  /** This PC's TCP settings for the advice, as read so far (null or absent: unknown; advice/local-settings.ts). */
  localSettings?: () => LocalSettings | null;
  /** Stream-intervals kept as sampled at the start (detail-rule.ts HEAD_CELLS; tests make it small). */
  detailCells?: number;
  /**
   * The partner is iperf3: its figures follow iperf3's conventions (with -O its sender leaves the
   * omitted seconds out of its bytes; its UDP receiver counts duplicates' bytes), so only the bounds
   * that hold under them are applied (peer-claims.ts).
   */
  iperf3Peer?: boolean;
}

export class RunRecorder {
  private readonly last: Record<Side, SideSample | undefined> = { controller: undefined, responder: undefined };
  /** Where each side's clock of this run starts: 0, or its first byte when that came before 0 (its first sample's `from`). */
  private readonly startT: Record<Side, number | undefined> = { controller: undefined, responder: undefined };
  /** Samples waiting for the other side's sample of the same tick (insertion order is tick order). */
  private readonly pending: Record<Side, Map<number, CumulativeSample>> = { controller: new Map(), responder: new Map() };
  private readonly ends: Record<Side, StreamEnd[] | null> = { controller: null, responder: null };
  private readonly errors: ErrorInfo[] = [];
  /** Each side's CPU over the transfer (undefined: not reported yet; null: it sent none). */
  private readonly cpu: Record<Side, CpuUse | null | undefined> = { controller: undefined, responder: undefined };
  private partialReason: string | null = null;
  private readonly grouping: Grouping;
  private readonly intervals: ThinnedSeries<IntervalResult>;
  /** The newest interval, held back one tick: the closing empty sliver is dropped, never thinned into the others. */
  private held: IntervalResult | null = null;
  private readonly builder: IntervalBuilder;
  private readonly offsets: number[] = [];
  private readonly tcp = new Map<string, { series: ThinnedSeries<TcpSample>; lastIndex: number }>();
  /** The partner's samples, judged as they come (the per-interval bound). */
  private readonly sampleClaims: SampleClaims;
  /** Smallest and largest receive window the senders saw, over every reading (thinning keeps only some). */
  private advertised: [number, number] | null = null;

  constructor(
    private meta: RecorderMeta,
    private readonly plan: PlannedStream[],
  ) {
    this.grouping = groupingFor(plan.length, meta.detailCells);
    this.intervals = new ThinnedSeries(this.grouping, mergeIntervals);
    this.builder = new IntervalBuilder(plan, referenceSide(meta.params.direction), 0, meta.params.omitSeconds ?? 0);
    this.sampleClaims = new SampleClaims(this.claimRules());
  }

  /** What the partner's claims are judged by (peer-claims.ts). */
  private claimRules(): ClaimRules {
    const { protocol, omitSeconds, bufferBytes } = this.meta.params;
    return { own: this.meta.writtenBy, udp: protocol === 'udp', iperf3Peer: !!this.meta.iperf3Peer, omitSeconds: omitSeconds ?? 0, datagramBytes: bufferBytes };
  }

  /** The partner's side of the run. */
  private get peer(): Side {
    return this.meta.writtenBy === 'controller' ? 'responder' : 'controller';
  }

  /** The same recorder, now knowing who the responder is (learnt from its hello). */
  withResponder(responder: PeerInfo): this {
    this.meta = { ...this.meta, responder };
    return this;
  }

  /** Who the responder is: its address until its hello, then its (printable) host name and software too. */
  get responder(): PeerInfo {
    return this.meta.responder;
  }

  /** The partner's TCP settings from its results (absent from peers that do not send them: unknown). */
  setPeerSettings(side: Side, settings: Record<string, string> | undefined): void {
    if (settings) this.meta = { ...this.meta, [side]: { ...this.meta[side], settings } };
  }

  /** The run's start, wall clock (informational: durations come from monotonic clocks). */
  setStartedAt(at: Date): void {
    this.meta = { ...this.meta, startedAt: at };
  }

  addSample(side: Side, s: SideSample): void {
    const last = this.last[side];
    if (last && s.index <= last.index) return; // duplicates or stragglers
    this.last[side] = s;
    if (side === this.peer) this.sampleClaims.add(s);
    this.startT[side] ??= Math.min(0, s.from ?? 0);
    for (const [id, reading] of s.tcp ?? []) this.addTcp(side, id, reading);
    // Without its TCP_INFO (kept above): a sample may wait here a while (the responder's recorder waits
    // MAX_LAG_TICKS for controller samples that never come), and what waits long costs a full GC to free.
    this.pending[side].set(s.index, {
      index: s.index,
      t: s.t,
      final: s.final,
      streams: s.streams,
      ...(s.tcp ? { tcp: slimTcp(s.tcp) } : {}),
      ...(s.udp ? { udp: s.udp } : {}),
      ...(s.from !== undefined ? { from: s.from } : {}),
    });
    this.drain(false);
  }

  /** --omit: the bytes `side` moved per stream in the intervals marked omitted so far, and where they end; null: none. */
  omittedSoFar(side: Side): { t: number; bytes: Map<number, number> } | null {
    const omitted = [...this.intervals.values(), ...(this.held ? [this.held] : [])].filter((iv) => iv.omitted);
    if (!omitted.length) return this.omittedPending(side);
    const bytes = new Map<number, number>();
    for (const iv of omitted) {
      for (const s of iv.streams) {
        const n = this.plan.find((p) => p.id === s.id)?.sender === side ? s.sentBytes : s.receivedBytes;
        bytes.set(s.id, (bytes.get(s.id) ?? 0) + (n ?? 0));
      }
    }
    return { t: Math.max(...omitted.map((iv) => iv.t)), bytes };
  }

  /** The same from `side`'s own samples still waiting for the other side's (an iperf3 peer sends none): its count at the last omitted tick. */
  private omittedPending(side: Side): { t: number; bytes: Map<number, number> } | null {
    let prevT = 0;
    let last: CumulativeSample | null = null;
    for (const s of this.pending[side].values()) {
      if (!isOmitted({ t: s.t, seconds: s.t - prevT }, this.meta.params.omitSeconds)) break;
      last = s;
      prevT = s.t;
    }
    return last ? { t: last.t, bytes: new Map(last.streams.map(([id, bytes]) => [id, bytes])) } : null;
  }

  /** Bytes counted so far by both sides' latest samples (a progress measure: the controller's watchdog). */
  bytesSoFar(): number {
    return (['controller', 'responder'] as const).reduce((a, side) => a + (this.last[side]?.streams ?? []).reduce((b, s) => b + s[1], 0), 0);
  }

  /** Latest cumulative sample of a side, for live displays. */
  latest(side: Side): SideSample | undefined {
    return this.last[side];
  }

  setEnds(side: Side, ends: StreamEnd[]): void {
    this.ends[side] = ends;
  }

  /** A side's CPU over the transfer: ours from the data plane, the peer's from its results (null: none sent). */
  setCpu(side: Side, cpu: CpuUse | null | undefined): void {
    this.cpu[side] = cpu ?? null;
  }

  endsOf(side: Side): StreamEnd[] {
    return this.ends[side] ?? [];
  }

  hasEnds(side: Side): boolean {
    return this.ends[side] !== null;
  }

  addError(e: ErrorInfo): void {
    if (!this.errors.some((x) => x.code === e.code && x.message === e.message)) this.errors.push(e);
  }

  /** Why the run is partial, as far as known before `build()` (null if nothing went wrong yet). */
  get partialReasonSoFar(): string | null {
    return this.partialReason;
  }

  markPartial(reason: string): void {
    this.partialReason ??= reason;
  }

  build(endedAt = new Date()): LonghaulResult {
    this.drain(true);
    this.commit(null);
    const intervals = this.intervals.values();
    const boundary = markOmitted(intervals, this.meta.params.omitSeconds);
    const streams = this.plan.map((p) => (boundary ? omitStream(this.streamResult(p), intervals, boundary.t) : this.streamResult(p)));
    for (const s of streams) {
      for (const v of [s.send, s.receive]) if (v?.error) this.addError(v.error);
    }
    const missing = (['controller', 'responder'] as const).filter((side) => this.ends[side] === null);
    if (missing.length) this.markPartial(`no end-of-run report from ${missing.map((side) => this.sideLabel(side)).join(' and ')}`);
    if (streams.some((s) => s.send?.error || s.receive?.error)) this.markPartial('one or more data streams failed');
    this.rejectClaims(streams, intervals);

    const directions: LonghaulResult['directions'] = {};
    const c2r = streams.filter((s) => s.sender === 'controller');
    const r2c = streams.filter((s) => s.sender === 'responder');
    // A partial run's rates over the seconds measured: each stream's span, then the spans of a set of streams together.
    const spans = new Map(this.partialReason === null ? [] : streams.map((s) => [s.id, this.measuredSpan(s, boundary?.t ?? -Infinity)]));
    for (const s of streams) {
      const p = spans.size ? partialRateOf([s], spans) : null;
      if (p) s.partialRate = p;
    }
    const total = (ss: StreamResult[]): TotalResult => {
      const t = boundary ? omitTotal(totalOf(ss, boundary.t), ss, intervals) : totalOf(ss);
      const p = spans.size ? partialRateOf(ss, spans) : null;
      return p ? { ...t, partialRate: p } : t;
    };
    if (c2r.length) directions.controllerToResponder = total(c2r);
    if (r2c.length) directions.responderToController = total(r2c);

    const result: LonghaulResult = {
      schema: RESULT_SCHEMA,
      id: this.meta.id,
      software: this.meta.software,
      startedAt: this.meta.startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      writtenBy: this.meta.writtenBy,
      controller: this.meta.controller,
      responder: this.meta.responder,
      params: this.meta.params,
      window: this.meta.window,
      streams,
      intervals,
      total: total(streams),
      directions,
      partial: this.partialReason !== null,
      partialReason: this.partialReason,
      errors: this.errors,
      ...(this.meta.link ? { link: this.meta.link() } : {}),
      ...(this.cpu.controller || this.cpu.responder ? { cpu: this.cpuInfo() } : {}),
      ...(this.meta.pathRateBitsPerSec ? { pathRate: { bitsPerSecond: this.meta.pathRateBitsPerSec, source: 'given' as const } } : {}),
    };
    attachTcpFields(result, (side, id) => this.tcp.get(`${side}:${id}`)?.series.values() ?? [], this.ends, this.advertised ?? []);
    result.unavailable = [...(result.unavailable ?? []), ...cpuUnavailable(result)];
    result.detail = detailInfo(this.grouping, this.intervals.recentFromIndex);
    result.advice = adviseResult(result, this.meta.localSettings?.() ?? {});
    return result;
  }

  /**
   * A partner's figure that broke a bound (StreamResult.peerClaim) is said once, naming the partner,
   * the run is marked partial, and the partner's per-interval figures of that stream go too: they are
   * the same claim, tick by tick.
   */
  private rejectClaims(streams: StreamResult[], intervals: IntervalResult[]): void {
    const claims = streams.filter((s) => s.peerClaim);
    if (!claims.length) return;
    for (const s of claims) {
      const c = s.peerClaim as PeerClaim;
      this.addError({ code: 'LH_ERR_PEER_CLAIM', message: `${this.sideLabel(c.side)} ${claimWords(c, s.id)}` });
      for (const iv of intervals) {
        const st = iv.streams.find((x) => x.id === s.id);
        if (!st) continue;
        if (c.view === 'receive') {
          st.receivedBytes = null;
          st.receiveCompletions = null;
          delete st.udp;
        } else st.sentBytes = null;
        iv.receivedBytes = sumOrNull(iv.streams.map((x) => x.receivedBytes));
        iv.sentBytes = sumOrNull(iv.streams.map((x) => x.sentBytes));
      }
    }
    const liar = claims[0]?.peerClaim?.side;
    this.markPartial(`${liar ? this.sideLabel(liar) : 'the partner'} claimed figures this PC's own measurement rules out: rejected (LH_ERR_PEER_CLAIM)`);
  }

  /**
   * The span a stream's received bytes were measured over (receiver clock, from `fromT` on): its first to last
   * byte when its receiver reported them; else, when its view is that receiver's last sample (no end report),
   * from that side's start to that sample, whose count is its bytes. Null when neither is known.
   */
  private measuredSpan(s: StreamResult, fromT: number): MeasuredSpan | null {
    const v = s.peerClaim?.view === 'receive' ? s.send : s.receive;
    if (!v) return null;
    if (v.firstT !== null && v.lastT !== null) return { from: Math.max(v.firstT, fromT), to: v.lastT, lastSample: false };
    const last = this.last[v.side];
    if (this.ends[v.side] !== null || !last) return null;
    return { from: Math.max(this.startT[v.side] ?? 0, fromT), to: last.t, lastSample: true };
  }

  /**
   * A side as errors name it: the partner by host name and address as the reports' headers do (`the responder
   * lab-7 (192.0.2.7)`; `the responder at 192.0.2.7` while only its address is known), this side as `this controller`.
   */
  private sideLabel(side: Side): string {
    if (side === this.meta.writtenBy) return `this ${side}`;
    const p = this.meta[side];
    return partnerLabel(side, { hostname: printable(p.hostname, 64), address: printable(p.address, 64) });
  }

  /** Both sides' CPU, and whether the peer is this PC itself (by the address this side knows it by). */
  private cpuInfo(): CpuInfo {
    const peer = this.meta.writtenBy === 'controller' ? this.meta.responder : this.meta.controller;
    return { controller: this.cpu.controller ?? null, responder: this.cpu.responder ?? null, samePc: samePcOf(peer.address) };
  }

  private endView(side: Side, id: number, role: 'send' | 'receive'): EndView | null {
    const fromEnds = this.ends[side]?.find((e) => e.id === id && e.role === role);
    if (fromEnds) {
      const seconds = fromEnds.firstT !== null && fromEnds.lastT !== null ? fromEnds.lastT - fromEnds.firstT : null;
      return {
        side,
        bytes: fromEnds.bytes,
        completions: fromEnds.completions,
        firstT: fromEnds.firstT,
        lastT: fromEnds.lastT,
        seconds,
        error: fromEnds.error,
        ...(fromEnds.io ? { io: fromEnds.io } : {}),
      };
    }
    // No end report: fall back on the last sample that side sent, with unknown timing.
    const last = this.latest(side)?.streams.find((e) => e[0] === id);
    if (!last) return null;
    return {
      side,
      bytes: last[1],
      completions: last[2],
      firstT: null,
      lastT: null,
      seconds: null,
      error: { code: 'LH_ERR_PEER_GONE', message: `no end-of-run report from ${this.sideLabel(side)}; counts are from its last sample` },
    };
  }

  private streamResult(p: PlannedStream): StreamResult {
    const receiverSide: Side = p.sender === 'controller' ? 'responder' : 'controller';
    let send = this.endView(p.sender, p.id, 'send');
    let receive = this.endView(receiverSide, p.id, 'receive');
    // Judged only on both end-of-run reports: a view from a side's last sample (it vanished) is stale, not a lie.
    const sendEnd = this.ends[p.sender]?.find((e) => e.id === p.id && e.role === 'send');
    const receiveEnd = this.ends[receiverSide]?.find((e) => e.id === p.id && e.role === 'receive');
    const rules = this.claimRules();
    const claim = judgeEnds(rules, p.sender, sendEnd, receiveEnd) ?? (receiverSide === this.peer ? this.sampleClaims.judge(this.peer, p.id, sendEnd) : null);
    if (claim?.view === 'send') send = null;
    if (claim?.view === 'receive' && send) {
      // This side's own measurement is the figure: what it handed to the kernel, the most the partner can have read.
      receive = null;
      const s = send.seconds;
      return {
        id: p.id,
        sender: p.sender,
        bytes: send.bytes,
        seconds: s,
        completions: 0,
        bitsPerSecond: s && s > 0 ? (send.bytes * 8) / s : null,
        send,
        receive,
        peerClaim: claim,
      };
    }
    const seconds = receive?.seconds ?? null;
    const bytes = receive?.bytes ?? 0;
    return {
      id: p.id,
      sender: p.sender,
      bytes,
      seconds,
      completions: receive?.completions ?? 0,
      bitsPerSecond: seconds && seconds > 0 ? (bytes * 8) / seconds : null,
      send,
      receive,
      ...(claim ? { peerClaim: claim } : {}),
      // A rejected sender's last number is not believed: the tail it would count is unknown.
      ...udpStreamResult(claim ? null : this.ends[p.sender], this.ends[receiverSide], this.latest(receiverSide), p.id),
    };
  }

  private addTcp(side: Side, id: number, reading: TcpSample): void {
    const key = `${side}:${id}`;
    let e = this.tcp.get(key);
    if (!e) this.tcp.set(key, (e = { series: new ThinnedSeries(this.grouping, mergeTcp), lastIndex: 0 }));
    if (reading.index <= e.lastIndex) return;
    e.lastIndex = reading.index;
    e.series.add(reading.index, reading);
    const w = reading.sndWndBytes;
    if (w !== null && this.plan.find((p) => p.id === id)?.sender === side) {
      this.advertised = this.advertised ? [Math.min(this.advertised[0], w), Math.max(this.advertised[1], w)] : [w, w];
    }
  }

  /**
   * Build every interval that is ready: both sides sampled it, or one side went past it (its
   * sample for it is never coming), or one side is MAX_LAG_TICKS ahead; with `all`, every one left.
   */
  private drain(all: boolean): void {
    const { controller: c, responder: r } = this.pending;
    for (;;) {
      const cNext = c.keys().next().value;
      const rNext = r.keys().next().value;
      if (cNext === undefined && rNext === undefined) return;
      const index = Math.min(cNext ?? Infinity, rNext ?? Infinity);
      const cs = c.get(index);
      const rs = r.get(index);
      const ready =
        all ||
        (cs && rs) ||
        (cs ? (this.last.responder?.index ?? 0) > index || c.size > MAX_LAG_TICKS : (this.last.controller?.index ?? 0) > index || r.size > MAX_LAG_TICKS);
      if (!ready) return;
      c.delete(index);
      r.delete(index);
      this.commit(this.buildInterval(index, cs, rs));
    }
  }

  private buildInterval(index: number, c: CumulativeSample | undefined, r: CumulativeSample | undefined): IntervalResult {
    const ref = this.builder.ref === 'controller' ? c : r;
    const other = this.builder.ref === 'controller' ? r : c;
    if (ref && other && !ref.final && !other.final && this.offsets.length < OFFSET_TICKS) {
      this.offsets.push(ref.t - other.t);
      this.builder.offset = median(this.offsets);
    }
    return this.builder.next(index, c, r);
  }

  /** Keep the held interval and hold `iv`; at the end (null), drop the held one if it is the workers' empty closing sliver. */
  private commit(iv: IntervalResult | null): void {
    const held = this.held;
    this.held = iv;
    if (!held) return;
    if (iv === null && this.intervals.length > 0 && held.seconds < 0.001 && !held.sentBytes && !held.receivedBytes) return;
    this.intervals.add(held.index, held);
    if (this.intervals.groupCount > this.grouping.headIndex) this.grouping.ticks *= 2;
  }
}

/** The median of the clock offsets seen so far (0 before the first). */
function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Totals under both named conventions. */
export function totalOf(streams: StreamResult[], fromT = -Infinity): TotalResult {
  const bytes = streams.reduce((a, s) => a + s.bytes, 0);
  const sentBytes = streams.reduce((a, s) => a + (s.send?.bytes ?? 0), 0);
  // --omit: the wall clock starts where the omitted seconds end (fromT), or at a later first byte.
  // A stream whose receiver's claim was rejected counts with this side's own sending times (StreamResult.peerClaim).
  const timesOf = (s: StreamResult): EndView | null => (s.peerClaim?.view === 'receive' ? s.send : s.receive);
  const firsts = streams
    .map((s) => timesOf(s)?.firstT)
    .filter((v): v is number => typeof v === 'number')
    .map((t) => Math.max(t, fromT));
  const lasts = streams.map((s) => timesOf(s)?.lastT).filter((v): v is number => typeof v === 'number');
  const seconds = firsts.length && lasts.length ? Math.max(...lasts) - Math.min(...firsts) : null;
  const rates = streams.map((s) => s.bitsPerSecond);
  return {
    bytes,
    sentBytes,
    seconds,
    bitsPerSecond: seconds && seconds > 0 ? (bytes * 8) / seconds : null,
    streamSumBitsPerSecond: rates.some((r) => r !== null) ? rates.reduce<number>((a, r) => a + (r ?? 0), 0) : null,
    completions: streams.reduce((a, s) => a + s.completions, 0),
    ...udpTotal(streams),
  };
}

/** A stream's received bytes were counted between `from` and `to` (receiver clock); `lastSample`: `to` is its last sample, not its last byte. */
interface MeasuredSpan {
  from: number;
  to: number;
  lastSample: boolean;
}

/** The streams' received bytes over their spans together (PartialRate); null when nothing arrived, or a stream's bytes have no span. */
function partialRateOf(streams: StreamResult[], spans: Map<number, MeasuredSpan | null>): PartialRate | null {
  const carried = streams.filter((s) => s.bytes > 0);
  const known = carried.map((s) => spans.get(s.id)).filter((x): x is MeasuredSpan => !!x);
  if (!carried.length || known.length < carried.length) return null;
  const bytes = carried.reduce((a, s) => a + s.bytes, 0);
  const seconds = Math.max(...known.map((x) => x.to)) - Math.min(...known.map((x) => x.from));
  if (!(seconds > 0)) return null;
  return { seconds, bitsPerSecond: (bytes * 8) / seconds, span: known.some((x) => x.lastSample) ? 'start-to-last-sample' : 'first-to-last-byte' };
}

/** --omit: the senders' bytes of the omitted intervals are out of `sentBytes` too. */
function omitTotal(t: TotalResult, streams: StreamResult[], intervals: IntervalResult[]): TotalResult {
  return { ...t, sentBytes: Math.max(0, t.sentBytes - streams.reduce((a, s) => a + omittedSentBytes(intervals, s.id), 0)) };
}

/** A rejected claim as the error says it (after the partner's name). */
function claimWords(c: PeerClaim, id: number): string {
  const where = `on stream ${id}${c.in === 'interval sample' ? ' in an interval' : ''}`;
  const kept = `its figure is rejected (${c.bound}); this PC's own is kept`;
  if (c.bound === 'received <= sent')
    return `claimed ${c.claimedBytes} bytes ${c.view === 'receive' ? 'received' : 'sent'} ${where}, but ${c.view === 'receive' ? 'this PC sent' : 'this PC received'} ${c.ownBytes}: ${kept}`;
  if (c.view === 'send') return `claimed ${c.claimedDatagrams} datagrams sent ${where}, but ${c.ownDatagrams} arrived here in order: ${kept}`;
  const what = c.bound === 'arrived <= sent' ? 'arrived' : 'arrived or lost';
  return `claimed ${c.claimedDatagrams} datagrams ${what} ${where}, but this PC sent ${c.ownDatagrams}: ${kept}`;
}
