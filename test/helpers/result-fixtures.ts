/**
 * Synthetic `longhaul.result/1` documents for report tests, built the way the
 * run recorder builds real ones (totals via the recorder's own `totalOf`), so
 * a report test checks the report, not a hand-made total.
 */
import type { Diagnosis, IntervalResult, LonghaulResult, Side, StreamResult, TcpSample } from '../../electron/contract/result.js';
import { totalOf } from '../../electron/engine/session/run-recorder.js';

interface FixtureStream {
  bytes: number;
  seconds: number | null;
  completions: number;
  /** Receiver clock of the first byte (default 0). */
  firstT?: number;
  sender?: Side;
}

interface FixtureOptions {
  streams: FixtureStream[];
  intervals?: IntervalResult[];
  partialReason?: string | null;
  intervalSeconds?: number;
  startedAt?: string;
}

export function makeResult(o: FixtureOptions): LonghaulResult {
  const streams: StreamResult[] = o.streams.map((s, id) => {
    const sender = s.sender ?? 'controller';
    const firstT = s.seconds === null ? null : (s.firstT ?? 0);
    const lastT = s.seconds === null || firstT === null ? null : firstT + s.seconds;
    const view = (side: Side) => ({ side, bytes: s.bytes, completions: s.completions, firstT, lastT, seconds: s.seconds, error: null });
    return {
      id,
      sender,
      bytes: s.bytes,
      seconds: s.seconds,
      completions: s.completions,
      bitsPerSecond: s.seconds ? (s.bytes * 8) / s.seconds : null,
      send: view(sender),
      receive: view(sender === 'controller' ? 'responder' : 'controller'),
    };
  });
  const c2r = streams.filter((s) => s.sender === 'controller');
  const r2c = streams.filter((s) => s.sender === 'responder');
  const partialReason = o.partialReason ?? null;
  return {
    schema: 'longhaul.result/1',
    id: 'fixture0000000001',
    software: 'longhaul test fixture',
    startedAt: o.startedAt ?? '2001-11-19T10:00:00.000Z',
    endedAt: '2001-11-19T10:01:21.359Z',
    writtenBy: 'controller',
    controller: { hostname: 'sender-pc', address: 'local', software: 'fixture' },
    responder: { hostname: 'receiver-pc', address: '192.0.2.10:5211', software: 'fixture' },
    params: {
      streams: c2r.length || r2c.length,
      bufferBytes: 65536,
      windowBytes: 20971520,
      bytes: streams.reduce((a, s) => a + s.bytes, 0),
      seconds: null,
      direction: c2r.length && r2c.length ? 'bidir' : r2c.length ? 'reverse' : 'forward',
      intervalSeconds: o.intervalSeconds ?? 1,
    },
    window: { requestedBytes: 20971520, applied: true, note: 'applied before the handshake' },
    streams,
    intervals: o.intervals ?? [],
    total: totalOf(streams),
    directions: {
      ...(c2r.length ? { controllerToResponder: totalOf(c2r) } : {}),
      ...(r2c.length ? { responderToController: totalOf(r2c) } : {}),
    },
    partial: partialReason !== null,
    partialReason,
    errors: partialReason ? [{ code: 'LH_ERR_PEER_GONE', message: partialReason }] : [],
  };
}

/**
 * The 2001 record run as the issue gives it: two streams of 4,224,000,000
 * bytes over 62.344 s and 81.359 s. Receive completions are not in the log;
 * 290,718 is what its "Trans/s" 3573.274 over 81.359 s implies.
 */
export function recordRun(): LonghaulResult {
  return makeResult({
    streams: [
      { bytes: 4_224_000_000, seconds: 62.344, completions: 145_359 },
      { bytes: 4_224_000_000, seconds: 81.359, completions: 145_359 },
    ],
  });
}

/** A few intervals for one or two streams, with both ends' views. */
export function makeIntervals(rows: { t: number; received: number[]; sent?: number[]; completions?: number[] }[]): IntervalResult[] {
  let prevT = 0;
  return rows.map((r, i) => {
    const streams = r.received.map((bytes, id) => ({
      id,
      receivedBytes: bytes,
      sentBytes: r.sent?.[id] ?? bytes,
      receiveCompletions: r.completions?.[id] ?? Math.ceil(bytes / 65536),
    }));
    const iv: IntervalResult = {
      index: i + 1,
      t: r.t,
      seconds: r.t - prevT,
      controllerT: r.t,
      responderT: r.t + 0.0004,
      streams,
      sentBytes: streams.reduce((a, s) => a + s.sentBytes, 0),
      receivedBytes: streams.reduce((a, s) => a + s.receivedBytes, 0),
    };
    prevT = r.t;
    return iv;
  });
}

/**
 * The seed's diagnosis (8,760 B over a 1.3 s satellite RTT: 53 kbit/s), for advice tests; `over` replaces
 * the verdict, direction or numbers.
 */
export function seedDiagnosis(over: Partial<Omit<Diagnosis, 'numbers'>> & { numbers?: Partial<Diagnosis['numbers']> } = {}): Diagnosis {
  return {
    direction: 'controllerToResponder',
    verdict: 'window-limited',
    sentence: '…',
    ...over,
    numbers: {
      measuredBitsPerSecond: 53_000,
      rttSeconds: 1.3,
      windowBytes: 8688,
      windowBitsPerSecond: 53_464,
      cwndBytes: 30_000,
      cwndBitsPerSecond: null,
      retransSegments: 0,
      rwndLimitedShare: 0.95,
      sndbufLimitedShare: 0,
      windowScale: 0,
      ...over.numbers,
    },
  };
}

/** A loopback run's emulated link (the proxy, no preset) with these settings, for advice tests. */
export function emulatedLink(settings: NonNullable<LonghaulResult['link']>['settings']): LonghaulResult['link'] {
  return {
    emulator: 'longhaul-proxy',
    preset: null,
    chains: { up: [], down: [] },
    modelCeilingBitsPerSec: null,
    bypassToggles: [],
    settings,
  } as unknown as LonghaulResult['link'];
}

/** One TCP_INFO reading at second `index`: every field unknown except those given. */
export function tcpSample(index: number, over: Partial<TcpSample>): TcpSample {
  return {
    index,
    t: index,
    rttUs: null,
    rttVarUs: null,
    sndCwndSegments: null,
    sndCwndBytes: null,
    totalRetransSegments: null,
    sndWndBytes: null,
    rcvSpaceBytes: null,
    deliveryRateBitsPerSecond: null,
    busyUs: null,
    rwndLimitedUs: null,
    sndbufLimitedUs: null,
    unackedSegments: null,
    notSentBytes: null,
    ...over,
  };
}
