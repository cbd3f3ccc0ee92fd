/** The limiter diagnosis from synthetic numbers (the seed's satellite case first). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult, StreamResult, TcpSample } from '../../electron/contract/result.js';
import { diagnoseLimiter, diagnoseResult, limiterInputs, type LimiterInputs } from '../../electron/engine/diagnosis.js';
import { formatRateShort, formatRtt } from '../../electron/util/units.js';

function inputs(over: Partial<LimiterInputs>): LimiterInputs {
  return {
    measuredBitsPerSecond: null,
    rttSeconds: null,
    windowBytes: null,
    windowScale: null,
    cwndBytes: null,
    retransSegments: null,
    busySeconds: null,
    rwndLimitedSeconds: null,
    sndbufLimitedSeconds: null,
    transferSeconds: null,
    linkBitsPerSecond: null,
    ...over,
  };
}

describe('diagnoseLimiter', () => {
  it('explains the seed: 8,760 B over a 1.3 s satellite RTT is 54 kbit/s, window-limited, scale 0', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 52_000,
        rttSeconds: 1.3,
        windowBytes: 8760,
        windowScale: 0,
        cwndBytes: 64_000,
        retransSegments: 0,
        linkBitsPerSecond: 4_000_000,
      }),
    );
    assert.equal(d.verdict, 'window-limited');
    assert.equal(Math.round(d.numbers.windowBitsPerSecond!), 53_908); // 8760 × 8 / 1.3
    assert.equal(
      d.sentence,
      'Receiver window 8,760 B over RTT 1.30 s allows at most 54 kbit/s; measured 52 kbit/s: the window is the limit. Window scaling was not negotiated (scale 0).',
    );
  });

  it('never claims a window ceiling below the measured rate: a noisy RTT leaves the verdict to the kernel timers', () => {
    // Loopback, -w 8760: the smoothed RTT sample (1.7 ms) is far above the typical RTT, so window ÷ RTT (41 Mbit/s) < measured.
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 756e6,
        rttSeconds: 0.0017,
        windowBytes: 8760,
        windowScale: 0,
        cwndBytes: 210_240,
        busySeconds: 2,
        rwndLimitedSeconds: 1.22,
        sndbufLimitedSeconds: 0,
      }),
    );
    assert.equal(d.verdict, 'window-limited');
    assert.doesNotMatch(d.sentence, /allows at most/);
    assert.match(d.sentence, /held the sender back 61% of its busy time; measured 756 Mbit\/s .*is not a ceiling here/);
  });

  it('the seed record run: a 20 MiB window over 1.3 s allows 129 Mbit/s, so a 4 Mbit/s link is the limit', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 3_800_000,
        rttSeconds: 1.3,
        windowBytes: 20 * 1024 * 1024,
        windowScale: 9,
        cwndBytes: 1_000_000,
        linkBitsPerSecond: 4_000_000,
      }),
    );
    assert.equal(d.verdict, 'link-limited');
    assert.match(d.sentence, /Measured 3\.8 Mbit\/s of the link's 4\.0 Mbit\/s \(95%\)/);
  });

  it('congestion-limited when cwnd/RTT is near the measured rate and below the window, with retransmissions', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 16e6,
        rttSeconds: 0.02,
        windowBytes: 4 * 1024 * 1024,
        windowScale: 7,
        cwndBytes: 43_800,
        retransSegments: 123,
        busySeconds: 10,
        rwndLimitedSeconds: 0,
        sndbufLimitedSeconds: 0,
        transferSeconds: 10,
      }),
    );
    assert.equal(d.verdict, 'congestion-limited');
    assert.match(d.sentence, /Congestion window 43,800 B over RTT 20\.0 ms allows at most 18 Mbit\/s; measured 16 Mbit\/s with 123 retransmitted segments/);
  });

  it("the kernel's rwnd-limited timer makes it window-limited even when the RTT estimate is off", () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 700e6,
        rttSeconds: 33e-6,
        windowBytes: 8760,
        windowScale: 0,
        cwndBytes: 200_000,
        busySeconds: 2,
        rwndLimitedSeconds: 1.3,
        sndbufLimitedSeconds: 0,
        transferSeconds: 2,
      }),
    );
    assert.equal(d.verdict, 'window-limited');
    assert.equal(d.numbers.rwndLimitedShare, 0.65);
    assert.match(d.sentence, /held the sender back 65% of its busy time/);
  });

  it('measured through a 4 Mbit/s tbf with an 8,760 B window: W/RTT ≈ rate, but the kernel timers say the link, not the window', () => {
    // Numbers from scripts/measure-seed-wan.sh on this machine (no netem: rate only, RTT is tbf queueing).
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 3_835_086,
        rttSeconds: 0.018592,
        windowBytes: 11_584,
        windowScale: 0,
        cwndBytes: 17_376,
        retransSegments: 0,
        busySeconds: 9.996,
        rwndLimitedSeconds: 0.288,
        sndbufLimitedSeconds: 0.272,
        transferSeconds: 10.116,
      }),
    );
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.match(
      d.sentence,
      /window allows 5\.0 Mbit\/s and the congestion window 7\.5 Mbit\/s .* measured 3\.8 Mbit\/s while the sender kept the socket full/,
    );
  });

  it('a full send buffer is reported as the send buffer, not the receiver window', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 10e6,
        rttSeconds: 0.05,
        windowBytes: 4e6,
        cwndBytes: 4e6,
        busySeconds: 10,
        rwndLimitedSeconds: 0.5,
        sndbufLimitedSeconds: 8,
        transferSeconds: 10,
      }),
    );
    assert.equal(d.verdict, 'window-limited');
    assert.match(d.sentence, /send buffer held it back 80% of its busy time/);
  });

  it('application-limited when both bounds are far above the rate and the sender idled', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 1e6,
        rttSeconds: 0.01,
        windowBytes: 1e6,
        cwndBytes: 1e6,
        busySeconds: 2,
        rwndLimitedSeconds: 0,
        sndbufLimitedSeconds: 0,
        transferSeconds: 10,
      }),
    );
    assert.equal(d.verdict, 'application-limited');
    assert.match(d.sentence, /data in flight only 20% of the time/);
  });

  it('link-limited (path) when both bounds are far above the rate and the sender kept the socket full', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 90e6,
        rttSeconds: 0.01,
        windowBytes: 6e6,
        cwndBytes: 3e6,
        busySeconds: 10,
        rwndLimitedSeconds: 0,
        sndbufLimitedSeconds: 0,
        transferSeconds: 10,
      }),
    );
    assert.equal(d.verdict, 'link-limited');
  });

  it('unknown, with the reason, when TCP_INFO was unavailable', () => {
    const d = diagnoseLimiter(inputs({ measuredBitsPerSecond: 5e9, missingReason: 'the native socket addon is disabled (LONGHAUL_NO_NATIVE=1)' }));
    assert.equal(d.verdict, 'unknown');
    assert.match(d.sentence, /RTT is unknown \(the native socket addon is disabled/);
  });

  it('unknown when nothing moved', () => {
    assert.equal(diagnoseLimiter(inputs({ measuredBitsPerSecond: 0, rttSeconds: 1 })).verdict, 'unknown');
  });
});

describe('formatting', () => {
  it('rates keep two or three significant digits with a decimal unit', () => {
    assert.equal(formatRateShort(53_908), '54 kbit/s');
    assert.equal(formatRateShort(4e6), '4.0 Mbit/s');
    assert.equal(formatRateShort(953.2e6), '953 Mbit/s');
    assert.equal(formatRateShort(2.14e9), '2.1 Gbit/s');
    assert.equal(formatRateShort(800), '800 bit/s');
  });
  it('RTTs pick s, ms or µs', () => {
    assert.equal(formatRtt(1.3), '1.30 s');
    assert.equal(formatRtt(0.02), '20.0 ms');
    assert.equal(formatRtt(34e-6), '34 µs');
  });
});

function sample(index: number, over: Partial<TcpSample>): TcpSample {
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

describe('diagnoseResult over a result document', () => {
  it('takes medians of the sender series, last cumulative timers, and sums windows over streams', () => {
    const tcp = [
      sample(1, { rttUs: 1_200_000, sndWndBytes: 4380, sndCwndBytes: 30_000, busyUs: 1e6, rwndLimitedUs: 0.9e6, totalRetransSegments: 0, unackedSegments: 2 }),
      sample(2, { rttUs: 1_300_000, sndWndBytes: 4380, sndCwndBytes: 30_000, busyUs: 2e6, rwndLimitedUs: 1.8e6, totalRetransSegments: 1, unackedSegments: 2 }),
      sample(3, { rttUs: 1_400_000, sndWndBytes: 4380, sndCwndBytes: 30_000, busyUs: 3e6, rwndLimitedUs: 2.7e6, totalRetransSegments: 1, unackedSegments: 2 }),
      // Idle reading after the end: left out of the medians.
      sample(4, {
        rttUs: 9_000_000,
        sndWndBytes: 65_535,
        sndCwndBytes: 30_000,
        busyUs: 3e6,
        rwndLimitedUs: 2.7e6,
        totalRetransSegments: 1,
        unackedSegments: 0,
      }),
    ];
    const stream = (id: number): StreamResult => ({
      id,
      sender: 'controller',
      bytes: 0,
      seconds: 3,
      completions: 0,
      bitsPerSecond: 26_000,
      send: { side: 'controller', bytes: 0, completions: 0, firstT: 0, lastT: 3, seconds: 3, error: null, tcp },
      receive: null,
    });
    const streams = [stream(0), stream(1)];
    const inputsOf = limiterInputs(streams, 52_000, 3);
    assert.equal(inputsOf.rttSeconds, 1.3);
    assert.equal(inputsOf.windowBytes, 8760);
    assert.equal(inputsOf.retransSegments, 2);
    assert.equal(inputsOf.busySeconds, 6);
    const r = { streams, params: {}, directions: { controllerToResponder: { bitsPerSecond: 52_000, seconds: 3 } } } as unknown as LonghaulResult;
    const [d] = diagnoseResult(r);
    assert.equal(d?.direction, 'controllerToResponder');
    assert.equal(d?.verdict, 'window-limited');
    assert.match(d!.sentence, /^Receiver window 8,760 B over RTT 1\.30 s allows at most 54 kbit\/s; measured 52 kbit\/s/);
  });

  it('Windows SIO_TCP_INFO readings (bytes, send-limit times, no segment counts): the seed case is still told window-limited', () => {
    // What tcp_info_win.cc fills from TCP_INFO_v1: RTT, min RTT, send window, cwnd in bytes, and the
    // RFC 4898 times (busy = Rwin + Cwnd + Snd); no retransmitted-segment count, no unacked count.
    const tcp = [1, 2, 3].map((i) =>
      sample(i, {
        rttUs: 1_310_000,
        minRttUs: 1_300_000,
        sndWndBytes: 8760,
        sndCwndBytes: 64_000,
        busyUs: i * 1e6,
        rwndLimitedUs: i * 0.95e6,
      } as Partial<TcpSample>),
    );
    const stream: StreamResult = {
      id: 0,
      sender: 'controller',
      bytes: 0,
      seconds: 3,
      completions: 0,
      bitsPerSecond: 52_000,
      send: { side: 'controller', bytes: 0, completions: 0, firstT: 0, lastT: 3, seconds: 3, error: null, tcp },
      receive: null,
    };
    const inputsOf = limiterInputs([stream], 52_000, 3);
    assert.equal(inputsOf.retransSegments, null, 'unknown, not 0');
    const r = { streams: [stream], params: {}, directions: { controllerToResponder: { bitsPerSecond: 52_000, seconds: 3 } } } as unknown as LonghaulResult;
    const [d] = diagnoseResult(r);
    assert.equal(d?.verdict, 'window-limited', d?.sentence);
    assert.match(d!.sentence, /^Receiver window 8,760 B over RTT 1\.31 s allows at most 53 kbit\/s; measured 52 kbit\/s: the window is the limit/);
  });

  it('through the link emulator: diagnoses the emulated link, not the local hop; a bypassed run gets no single verdict', () => {
    const settings = { delayMs: 650, jitterMs: 0, rateBitsPerSec: 4e6, windowBytes: 65_536, slowstart: false, lossRatio: 0, mssBytes: 1448 };
    const base = {
      streams: [],
      directions: { controllerToResponder: { bitsPerSecond: 390_000, seconds: 20 } },
      link: {
        emulator: 'longhaul-proxy',
        preset: 'satellite',
        settings,
        chains: { up: [], down: [] },
        modelCeilingBitsPerSec: 403_298,
        bypassToggles: [],
        note: '',
      },
    };
    const [d] = diagnoseResult(base as unknown as LonghaulResult);
    assert.equal(d?.verdict, 'window-limited');
    assert.match(d!.sentence, /^Receiver window 65,536 B over RTT 1\.30 s allows at most 403 kbit\/s; measured 390 kbit\/s/);
    assert.match(d!.sentence, /Emulated link/);
    // Modelled loss: Reno's average window under it plays the congestion window (Lossy Wi-Fi: 10 ms, 1 %).
    const lossy = {
      ...base,
      directions: { controllerToResponder: { bitsPerSecond: 10.3e6, seconds: 2 } },
      link: {
        ...base.link,
        settings: { ...settings, delayMs: 5, rateBitsPerSec: 30e6, windowBytes: null, lossRatio: 0.01 },
        modelledLoss: { up: { segments: 4323, losses: 43, halvings: 43 }, down: null },
      },
    };
    const [l] = diagnoseResult(lossy as unknown as LonghaulResult);
    assert.equal(l?.verdict, 'congestion-limited', l?.sentence);
    assert.match(
      l!.sentence,
      /^With 1 % modelled loss, Reno averages about 17,734 B in flight \(MSS 1,448 B × √\(3\/\(2p\)\) per stream\), 14 Mbit\/s over RTT 10\.0 ms; measured 10 Mbit\/s: the loss is the limit\. The proxy modelled 43 losses in 4,323 segments and halved its in-flight cap 43 times\./,
    );
    // A 2 s run's ~20 random losses can leave it well below Reno's average (measured 9.2 Mbit/s in CI):
    // nothing but the loss holds it back in the emulated model, so it is still the loss, said so.
    const unlucky = { ...lossy, directions: { controllerToResponder: { bitsPerSecond: 9.2e6, seconds: 2 } } };
    const [u] = diagnoseResult(unlucky as unknown as LonghaulResult);
    assert.equal(u?.verdict, 'congestion-limited', u?.sentence);
    assert.match(u!.sentence, /^With 1 % modelled loss, Reno averages .* measured 9\.2 Mbit\/s, below that average: a short run sees few losses/);
    const short = { ...lossy, directions: { controllerToResponder: { bitsPerSecond: 18e6, seconds: 2 } } };
    assert.match(
      diagnoseResult(short as unknown as LonghaulResult)[0]!.sentence,
      /measured 18 Mbit\/s, above that average: the run was too short for the losses to set the pace/,
    );
    const windowFirst = {
      ...lossy,
      directions: { controllerToResponder: { bitsPerSecond: 5e6, seconds: 2 } },
      link: { ...lossy.link, settings: { ...lossy.link.settings, windowBytes: 8760 } },
    };
    assert.equal(diagnoseResult(windowFirst as unknown as LonghaulResult)[0]?.verdict, 'window-limited', 'a window below the loss window is the limit');
    // A short run over the satellite link with slow start and no window: the ramp, not the path, held it.
    const ramp = {
      ...base,
      directions: { controllerToResponder: { bitsPerSecond: 608_000, seconds: 6.6 } },
      link: { ...base.link, settings: { ...settings, windowBytes: null, slowstart: true } },
    };
    const [sr] = diagnoseResult(ramp as unknown as LonghaulResult);
    assert.equal(sr?.verdict, 'congestion-limited', sr?.sentence);
    assert.match(
      sr!.sentence,
      /^Slow start: from 10 × 1,448 B, doubling per round trip, a stream needs about 6 round trips \(7\.8 s\) to reach 650,000 B in flight \(the link's bandwidth-delay product\); the data flowed for 6\.6 s/,
    );
    assert.match(sr!.sentence, /Run at least 32 s to see the link's rate\./);
    const long = { ...ramp, directions: { controllerToResponder: { bitsPerSecond: 3.7e6, seconds: 40 } } };
    assert.equal(diagnoseResult(long as unknown as LonghaulResult)[0]?.verdict, 'link-limited');
    const bypassed = {
      ...base,
      link: {
        ...base.link,
        bypassToggles: [
          { t: 5, bypass: true },
          { t: 8, bypass: false },
        ],
      },
    };
    const [b] = diagnoseResult(bypassed as unknown as LonghaulResult);
    assert.equal(b?.verdict, 'unknown');
    assert.match(b!.sentence, /bypassed during the run \(bypass on at 5\.0 s, off at 8\.0 s\)/);
  });
});

describe("diagnoseLimiter with the kernel's minimum RTT (a standing queue)", () => {
  // Numbers measured on the kernel WAN harness (test/wan/), 4 Mbit/s and 100 ms each way.
  const bdp = inputs({
    measuredBitsPerSecond: 3_580_729,
    rttSeconds: 0.255483,
    minRttSeconds: 0.2005,
    windowBytes: 125_948,
    windowScale: 1,
    cwndBytes: 296_840,
    retransSegments: 0,
    busySeconds: 6.4,
    rwndLimitedSeconds: 3.24,
    sndbufLimitedSeconds: 0.93,
    transferSeconds: 6.44,
  });

  it('a window of about one BDP: the kernel counts rwnd-limited time, but the RTT grew in the queue, so the path is the limit', () => {
    const d = diagnoseLimiter(bdp);
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.match(d.sentence, /^Receiver window 125,948 B would allow 5\.0 Mbit\/s at the path's minimum RTT of 200\.5 ms, but the RTT grew to 255\.5 ms/);
    assert.match(d.sentence, /measured 3\.6 Mbit\/s: the path .* is the limit, not the window\.$/);
  });

  it('without the minimum RTT the same numbers stay window-limited (older results)', () => {
    assert.equal(diagnoseLimiter({ ...bdp, minRttSeconds: null }).verdict, 'window-limited');
  });

  it('the seed case keeps its verdict: RTT 1.37 s is within 20 % of the 1.30 s minimum', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 49_300,
        rttSeconds: 1.3707,
        minRttSeconds: 1.3013,
        windowBytes: 8688,
        windowScale: 0,
        cwndBytes: 33_304,
        retransSegments: 1,
        busySeconds: 41.3,
        rwndLimitedSeconds: 30.8,
        sndbufLimitedSeconds: 1.7,
        transferSeconds: 42.5,
      }),
    );
    assert.equal(d.verdict, 'window-limited');
    assert.match(
      d.sentence,
      /^Receiver window 8,688 B over RTT 1\.37 s allows at most 51 kbit\/s; measured 49 kbit\/s: the window is the limit\. Window scaling was not negotiated \(scale 0\)\./,
    );
  });

  it('on loopback (minimum RTT below 1 ms) an RTT above the minimum is wake-up latency, not a bottleneck queue', () => {
    const d = diagnoseLimiter(
      inputs({
        measuredBitsPerSecond: 700e6,
        rttSeconds: 60e-6,
        minRttSeconds: 12e-6,
        windowBytes: 8760,
        windowScale: 0,
        cwndBytes: 200_000,
        busySeconds: 2,
        rwndLimitedSeconds: 1.3,
        sndbufLimitedSeconds: 0,
        transferSeconds: 2,
      }),
    );
    assert.equal(d.verdict, 'window-limited');
  });

  it('limiterInputs takes the lowest min_rtt over the sender series', () => {
    const tcp = [sample(1, { rttUs: 250_000, minRttUs: 201_000, unackedSegments: 5 }), sample(2, { rttUs: 255_000, minRttUs: 200_400, unackedSegments: 5 })];
    const s: StreamResult = {
      id: 0,
      sender: 'controller',
      bytes: 0,
      seconds: 2,
      completions: 0,
      bitsPerSecond: 1,
      send: { side: 'controller', bytes: 0, completions: 0, firstT: 0, lastT: 2, seconds: 2, error: null, tcp },
      receive: null,
    };
    assert.equal(limiterInputs([s], 1, 2).minRttSeconds, 0.2004);
  });
});
