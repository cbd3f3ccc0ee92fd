/**
 * The limiter diagnosis over a whole result document: which readings it takes from
 * the sender series (medians, last cumulative timers, windows summed over streams),
 * Windows readings, and runs through the link emulator.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult, StreamResult, TcpSample } from '../../electron/contract/result.js';
import { diagnoseResult } from '../../electron/analysis/diagnosis.js';
import { limiterInputs } from '../../electron/analysis/limiter-inputs.js';
import { tcpSample } from '../helpers/result-fixtures.js';

describe('diagnoseResult over a result document', () => {
  it('takes medians of the sender series, timers as differences inside the transfer, and sums windows over streams', () => {
    const tcp = [
      tcpSample(1, {
        rttUs: 1_200_000,
        sndWndBytes: 4380,
        sndCwndBytes: 30_000,
        busyUs: 1e6,
        rwndLimitedUs: 0.9e6,
        totalRetransSegments: 0,
        unackedSegments: 2,
      }),
      tcpSample(2, {
        rttUs: 1_300_000,
        sndWndBytes: 4380,
        sndCwndBytes: 30_000,
        busyUs: 2e6,
        rwndLimitedUs: 1.8e6,
        totalRetransSegments: 1,
        unackedSegments: 2,
      }),
      tcpSample(3, {
        rttUs: 1_400_000,
        sndWndBytes: 4380,
        sndCwndBytes: 30_000,
        busyUs: 3e6,
        rwndLimitedUs: 2.7e6,
        totalRetransSegments: 1,
        unackedSegments: 2,
      }),
      // Idle reading after the end: left out of the medians.
      tcpSample(4, {
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
    // Busy time from the first reading inside the transfer (t = 1 s) to the one at its end (3 s), per stream: not the handshake's count.
    assert.equal(inputsOf.busySeconds, 4);
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
      tcpSample(i, {
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
