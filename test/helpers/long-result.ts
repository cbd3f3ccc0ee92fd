/**
 * A synthetic result shaped like a long real run: every stream in every
 * interval, and a TCP_INFO reading per stream end per tick (the part that made
 * an hour of 16 streams at -i 0.1 about 730 MB of JSON).
 */
import type { IntervalResult, LonghaulResult, TcpSample } from '../../electron/contract/result.js';
import { makeResult } from './result-fixtures.js';

interface LongResultOptions {
  streams: number;
  intervals: number;
  intervalSeconds: number;
  /** Leave out the TCP_INFO series (a result from a PC without the addon). */
  noTcp?: boolean;
}

function tcpAt(index: number, t: number, id: number): TcpSample {
  return {
    index,
    t: t + id * 1e-6,
    rttUs: 1200 + ((index * 7 + id) % 300),
    rttVarUs: 150 + (index % 40),
    minRttUs: 1100,
    sndCwndSegments: 40 + (index % 17),
    sndCwndBytes: (40 + (index % 17)) * 1448,
    totalRetransSegments: Math.floor(index / 50),
    sndWndBytes: 3_145_728,
    rcvSpaceBytes: 6_291_456,
    deliveryRateBitsPerSecond: 612_345_678 + index,
    busyUs: index * 100_000,
    rwndLimitedUs: 0,
    sndbufLimitedUs: index * 1_234,
    unackedSegments: 37,
    notSentBytes: 262_144,
  };
}

export function makeLongResult(o: LongResultOptions): LonghaulResult {
  const perInterval = 7_812_500 * o.intervalSeconds;
  const seconds = o.intervals * o.intervalSeconds;
  const r = makeResult({
    streams: Array.from({ length: o.streams }, () => ({ bytes: perInterval * o.intervals, seconds, completions: 120 * o.intervals })),
    intervalSeconds: o.intervalSeconds,
  });
  const intervals: IntervalResult[] = [];
  for (let i = 1; i <= o.intervals; i++) {
    const t = i * o.intervalSeconds + 0.000_123;
    const streams = Array.from({ length: o.streams }, (_, id) => ({ id, sentBytes: perInterval, receivedBytes: perInterval, receiveCompletions: 120 }));
    intervals.push({
      index: i,
      t,
      seconds: o.intervalSeconds,
      controllerT: t - 0.0004,
      responderT: t,
      streams,
      sentBytes: perInterval * o.streams,
      receivedBytes: perInterval * o.streams,
    });
  }
  r.intervals = intervals;
  if (!o.noTcp) {
    for (const s of r.streams) {
      s.send!.tcp = intervals.map((iv) => tcpAt(iv.index, iv.t, s.id));
      s.receive!.tcp = intervals.map((iv) => tcpAt(iv.index, iv.t, s.id));
    }
  }
  return r;
}
