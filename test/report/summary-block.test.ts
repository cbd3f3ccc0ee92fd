import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TcpSample } from '../../electron/contract/result.js';
import { diagnoseResult } from '../../electron/analysis/diagnosis.js';
import { formatSummary } from '../../electron/report/summary-block.js';
import { makeResult, recordRun } from '../helpers/result-fixtures.js';

describe('summary block', { timeout: 10_000 }, () => {
  it('names both conventions with their values', () => {
    const text = formatSummary(recordRun());
    assert.match(text, /wall-clock aggregate \(total bytes x 8 \/ first byte to last byte\): +830\.69 Mbit\/s/);
    assert.match(text, /per-stream sum \(each stream over its own time, PetaBumps "Total"\): +957\.37 Mbit\/s/);
    assert.match(text, /^0 +controller +4,224,000,000 +4,224,000,000 +62\.344 +542\.02 Mbit\/s$/m);
  });

  it('says unknown for RTT, BDP and limiter when nothing measured them', () => {
    const text = formatSummary(recordRun());
    assert.match(text, /^Round-trip time: unknown/m);
    assert.match(text, /^Bandwidth-delay product: unknown/m);
    assert.match(text, /^Limiter: unknown/m);
    assert.doesNotMatch(text, /Land Speed Record/);
  });

  it('uses RTT and diagnosis when given', () => {
    const r = makeResult({ streams: [{ bytes: 650_000, seconds: 1.3, completions: 10 }] }); // exactly 4 Mbit/s
    const text = formatSummary(r, { rttMs: 1300, diagnosis: 'the receive window (650,000 bytes) is full every round trip' });
    assert.match(text, /^Round-trip time: 1\.30 s$/m);
    // No path rate: the measured rate is not the path's (in a window-limited run it is today's window again).
    assert.match(text, /^Bandwidth-delay product: unknown: the path's rate is unknown; give it with --path-rate/m);
    r.pathRate = { bitsPerSecond: 4e6, source: 'given' };
    assert.match(
      formatSummary(r, { rttMs: 1300 }),
      /^Bandwidth-delay product of the path: 650,000 bytes \(the stated path rate, 4\.00 Mbit\/s, x 1\.30 s \/ 8\): the window the path needs$/m,
    );
    assert.match(text, /^Limiter: the receive window/m);
  });

  it('one output, one RTT: the summary, the TCP lines and the limiter all quote the RTT while data flowed', () => {
    // Loopback as measured: 27 µs while data was in flight, 234 µs in the idle reading after the end.
    const r = makeResult({ streams: [{ bytes: 2e9, seconds: 2, completions: 1000 }] });
    const reading = (index: number, rttUs: number, unacked: number): TcpSample => ({
      index,
      t: index,
      rttUs,
      rttVarUs: 5,
      sndCwndSegments: 100,
      sndCwndBytes: 6_000_000,
      totalRetransSegments: 0,
      sndWndBytes: 8_000_000,
      rcvSpaceBytes: null,
      deliveryRateBitsPerSecond: null,
      busyUs: index * 1e6,
      rwndLimitedUs: 0,
      sndbufLimitedUs: 0,
      unackedSegments: unacked,
      notSentBytes: 0,
    });
    r.streams[0]!.send!.tcp = [reading(1, 26, 40), reading(2, 27, 40), reading(3, 30, 40), reading(4, 234, 0)];
    r.streams[0]!.send!.socket = {
      requestedBytes: null,
      appliedBeforeHandshake: false,
      sndBufBytes: null,
      rcvBufBytes: null,
      sndBufLocked: null,
      rcvBufLocked: null,
      sndMssBytes: 32_741,
      rcvMssBytes: null,
      pmtuBytes: null,
      sndWscale: 7,
      rcvWscale: 7,
      wscaleNegotiated: true,
      tcpInfoSource: 'linux-tcp_info',
      unavailable: [],
    };
    r.diagnosis = diagnoseResult(r);
    const text = formatSummary(r);
    assert.match(r.diagnosis[0]!.sentence, /RTT 27 µs/);
    assert.match(text, /^Round-trip time: 27 µs \(/m);
    assert.match(text, /, RTT 27 µs, cwnd/);
    assert.doesNotMatch(text, /234 µs|0\.234/);
  });

  it('gives the Land Speed Record metric for --distance-km under both conventions', () => {
    const text = formatSummary(recordRun(), { distanceKm: 5626 });
    assert.match(text, /per-stream sum: 957\.369 Mbit\/s x 5,626 km = 5\.39e15 bit·m\/s \(5\.4 peta-bit-metres\/s\)/);
    assert.match(text, /wall-clock: +830\.689 Mbit\/s x 5,626 km = 4\.67e15 bit·m\/s/);
  });

  it('takes the distance the result records when none is passed, and a passed one over it', () => {
    const r = { ...recordRun(), distance: { meters: 5_626_000, source: 'given' as const } };
    assert.match(formatSummary(r), /per-stream sum: 957\.369 Mbit\/s x 5,626 km = 5\.39e15 bit·m\/s/);
    assert.match(formatSummary(r, { distanceKm: 1000 }), /x 1,000 km/);
    assert.doesNotMatch(formatSummary(recordRun()), /Land Speed Record/);
  });

  it('flags partial results loudly', () => {
    const text = formatSummary(makeResult({ streams: [{ bytes: 5, seconds: null, completions: 1 }], partialReason: 'stopped by the user' }));
    assert.match(text, /^PARTIAL RESULT: stopped by the user$/m);
    assert.match(text, /received in unknown/);
  });
});
