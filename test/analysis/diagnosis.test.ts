/** The limiter diagnosis from synthetic numbers (the seed's satellite case first). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamResult } from '../../electron/contract/result.js';
import { limiterInputs, type LimiterInputs } from '../../electron/analysis/limiter-inputs.js';
import { diagnoseLimiter } from '../../electron/analysis/limiter.js';
import { formatRateShort, formatRtt } from '../../electron/contract/units.js';
import { tcpSample } from '../helpers/result-fixtures.js';

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
    assert.match(d.sentence, /held the sender back 61 % of its busy time; measured 756 Mbit\/s .*is not a ceiling here/);
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
    assert.match(d.sentence, /Measured 3\.8 Mbit\/s of the link's 4\.0 Mbit\/s \(95 %\)/);
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
    assert.match(d.sentence, /held the sender back 65 % of its busy time/);
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
    assert.equal(d.verdict, 'send-buffer-limited');
    assert.match(d.sentence, /send buffer of the sending PC held it back 80 % of its busy time/);
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
    assert.match(d.sentence, /data in flight only 20 % of the stream's active time/);
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
    const tcp = [
      tcpSample(1, { rttUs: 250_000, minRttUs: 201_000, unackedSegments: 5 }),
      tcpSample(2, { rttUs: 255_000, minRttUs: 200_400, unackedSegments: 5 }),
    ];
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
