/**
 * Collects what both sides measured during a run (their per-interval samples
 * and their per-stream end reports) and turns it into a `longhaul.result/1`.
 * Works on whatever arrived: a run cut short still yields a result, marked partial.
 */
import type {
  EndView, ErrorInfo, LinkInfo, IntervalResult, LonghaulResult, PeerInfo, ResultParams, Side,
  StreamResult, TotalResult, WindowInfo,
} from '../contract/result.js';
import { RESULT_SCHEMA } from '../contract/result.js';
import type { StreamEnd } from '../protocol/messages.js';
import type { SideSample } from './data-plane.js';
import { clockOffset, IntervalBuilder, referenceSide } from './interval-builder.js';
import type { PlannedStream } from './params.js';
import { adviseResult } from './advice/advise.js';
import { readLocalSettings } from './advice/local-settings.js';
import { attachTcpFields } from './tcp-results.js';

export interface RecorderMeta {
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
}

export class RunRecorder {
  private readonly samples: Record<Side, SideSample[]> = { controller: [], responder: [] };
  private readonly ends: Record<Side, StreamEnd[] | null> = { controller: null, responder: null };
  private readonly errors: ErrorInfo[] = [];
  private partialReason: string | null = null;

  constructor(private meta: RecorderMeta, private readonly plan: PlannedStream[]) {}

  /** The same recorder, now knowing who the responder is (learnt from its hello). */
  withResponder(responder: PeerInfo): this {
    this.meta = { ...this.meta, responder };
    return this;
  }

  /** Who the responder is: its address until its hello, then its (printable) host name and software too. */
  get responder(): PeerInfo {
    return this.meta.responder;
  }

  /** The run's start, wall clock (informational: durations come from monotonic clocks). */
  setStartedAt(at: Date): void {
    this.meta = { ...this.meta, startedAt: at };
  }

  addSample(side: Side, s: SideSample): void {
    const list = this.samples[side];
    const last = list[list.length - 1];
    if (last && s.index <= last.index) return; // duplicates or stragglers
    list.push(s);
  }

  /** Latest cumulative sample of a side, for live displays. */
  latest(side: Side): SideSample | undefined {
    const list = this.samples[side];
    return list[list.length - 1];
  }

  setEnds(side: Side, ends: StreamEnd[]): void {
    this.ends[side] = ends;
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
    const streams = this.plan.map((p) => this.streamResult(p));
    for (const s of streams) {
      for (const v of [s.send, s.receive]) if (v?.error) this.addError(v.error);
    }
    const missing = (['controller', 'responder'] as const).filter((side) => this.ends[side] === null);
    if (missing.length) this.markPartial(`no end-of-run report from the ${missing.join(' and ')}`);
    if (streams.some((s) => s.send?.error || s.receive?.error)) this.markPartial('one or more data streams failed');

    const directions: LonghaulResult['directions'] = {};
    const c2r = streams.filter((s) => s.sender === 'controller');
    const r2c = streams.filter((s) => s.sender === 'responder');
    if (c2r.length) directions.controllerToResponder = totalOf(c2r);
    if (r2c.length) directions.responderToController = totalOf(r2c);

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
      intervals: this.intervals(),
      total: totalOf(streams),
      directions,
      partial: this.partialReason !== null,
      partialReason: this.partialReason,
      errors: this.errors,
      ...(this.meta.link ? { link: this.meta.link() } : {}),
      ...(this.meta.pathRateBitsPerSec ? { pathRate: { bitsPerSecond: this.meta.pathRateBitsPerSec, source: 'given' as const } } : {}),
    };
    attachTcpFields(result, this.samples, this.ends);
    result.advice = adviseResult(result, readLocalSettings());
    return result;
  }

  private endView(side: Side, id: number, role: 'send' | 'receive'): EndView | null {
    const fromEnds = this.ends[side]?.find((e) => e.id === id && e.role === role);
    if (fromEnds) {
      const seconds = fromEnds.firstT !== null && fromEnds.lastT !== null ? fromEnds.lastT - fromEnds.firstT : null;
      return {
        side, bytes: fromEnds.bytes, completions: fromEnds.completions, firstT: fromEnds.firstT, lastT: fromEnds.lastT, seconds, error: fromEnds.error,
        ...(fromEnds.io ? { io: fromEnds.io } : {}),
      };
    }
    // No end report: fall back on the last sample that side sent, with unknown timing.
    const last = this.latest(side)?.streams.find((e) => e[0] === id);
    if (!last) return null;
    return {
      side, bytes: last[1], completions: last[2], firstT: null, lastT: null, seconds: null,
      error: { code: 'LH_ERR_PEER_GONE', message: `no end-of-run report from the ${side}; counts are from its last sample` },
    };
  }

  private streamResult(p: PlannedStream): StreamResult {
    const receiverSide: Side = p.sender === 'controller' ? 'responder' : 'controller';
    const send = this.endView(p.sender, p.id, 'send');
    const receive = this.endView(receiverSide, p.id, 'receive');
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
    };
  }

  private intervals(): IntervalResult[] {
    const bySide = {
      controller: new Map(this.samples.controller.map((s) => [s.index, s])),
      responder: new Map(this.samples.responder.map((s) => [s.index, s])),
    };
    const ref = referenceSide(this.meta.params.direction);
    const other: Side = ref === 'controller' ? 'responder' : 'controller';
    const builder = new IntervalBuilder(this.plan, ref, clockOffset(bySide[ref], bySide[other]));
    const indices = [...new Set([...bySide.controller.keys(), ...bySide.responder.keys()])].sort((a, b) => a - b);
    const out = indices.map((index) => builder.next(index, bySide.controller.get(index), bySide.responder.get(index)));
    // The workers' final sample often lands a hair after the last tick with nothing new: drop that empty sliver.
    const last = out[out.length - 1];
    if (out.length > 1 && last && last.seconds < 0.001 && !last.sentBytes && !last.receivedBytes) out.pop();
    return out;
  }
}

/** Totals under both named conventions. */
export function totalOf(streams: StreamResult[]): TotalResult {
  const bytes = streams.reduce((a, s) => a + s.bytes, 0);
  const sentBytes = streams.reduce((a, s) => a + (s.send?.bytes ?? 0), 0);
  const firsts = streams.map((s) => s.receive?.firstT).filter((v): v is number => typeof v === 'number');
  const lasts = streams.map((s) => s.receive?.lastT).filter((v): v is number => typeof v === 'number');
  const seconds = firsts.length && lasts.length ? Math.max(...lasts) - Math.min(...firsts) : null;
  const rates = streams.map((s) => s.bitsPerSecond);
  return {
    bytes,
    sentBytes,
    seconds,
    bitsPerSecond: seconds && seconds > 0 ? (bytes * 8) / seconds : null,
    streamSumBitsPerSecond: rates.some((r) => r !== null) ? rates.reduce<number>((a, r) => a + (r ?? 0), 0) : null,
    completions: streams.reduce((a, s) => a + s.completions, 0),
  };
}
