/**
 * The Results headline (renderer/src/lib/result-headline.ts): one rate, named; the share of the link only
 * where its rate is known and not contradicted; the verdict and change from the result's own diagnosis and
 * advice; one RTT, the emulated link's when there is one. Also the phase line and the failed-start words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Advice } from '../../../electron/contract/advice.js';
import { resultHeadline } from '../../../renderer/src/lib/result-headline.js';
import { phaseLine, phaseProgress } from '../../../renderer/src/lib/run-phase-text.js';
import { startFailure } from '../../../renderer/src/lib/start-failure.js';
import { emulatedLink, makeResult, seedDiagnosis } from '../../helpers/result-fixtures.js';

const ADVICE: Advice = {
  direction: 'controllerToResponder',
  verdict: 'window-limited',
  topic: 'receive-window',
  side: 'responder',
  thisPc: false,
  hostname: 'lab-7',
  os: 'Linux',
  setting: 'net.ipv4.tcp_rmem (third value: the most receive autotuning may use)',
  currentValue: null,
  neededValue: 'at least 650,000 bytes',
  how: 'sudo sysctl …',
  why: '…',
};

/** The seed's satellite run: 1.79 Mbit/s over 3 s. */
function seed(): ReturnType<typeof makeResult> {
  const r = makeResult({ streams: [{ bytes: (1.79e6 / 8) * 3, seconds: 3, completions: 100 }] });
  r.diagnosis = [seedDiagnosis({ numbers: { measuredBitsPerSecond: 1.79e6, rttSeconds: 1.3 } })];
  r.advice = [ADVICE];
  return r;
}

describe('results headline', () => {
  it('a given path rate: the wall-clock rate, its share of the payload the rate carries, the verdict and the change', () => {
    const r = seed();
    r.pathRate = { bitsPerSecond: 4e6, source: 'given' };
    const h = resultHeadline(r);
    assert.equal(h.bitsPerSecond, r.total.bitsPerSecond);
    assert.ok(h.share);
    assert.equal(Math.round(h.share.capacityBitsPerSec), Math.round((4e6 * 1448) / 1514));
    assert.equal(Math.round(h.share.percent), 47);
    assert.equal(h.share.of, 'path rate given');
    assert.equal(h.verdict, 'window-limited');
    assert.equal(h.change, 'raise the receive window on lab-7: at least 650,000 bytes');
    assert.deepEqual(h.rtt, { ms: 1300, what: 'round trip measured by the sending PC while the data flowed' });
    assert.equal(h.localHop, false);
  });

  it('through the emulator: the emulated RTT is the one named, the kernels’ is the local hop', () => {
    const r = seed();
    r.link = emulatedLink({ rateBitsPerSec: 4e6, delayMs: 650, lossRatio: 0, windowBytes: 65536, mssBytes: 1448 } as never);
    const h = resultHeadline(r);
    assert.equal(h.rtt?.ms, 1300);
    assert.match(h.rtt?.what ?? '', /emulated link/);
    assert.equal(h.localHop, true);
    assert.equal(h.share?.of, 'emulated link');
  });

  it("a UDP run through the emulator: the share is of the datagrams' payload the link carries (42 header bytes each), not TCP's", () => {
    const r = makeResult({ streams: [{ bytes: (3.888e6 / 8) * 3, seconds: 3, completions: 100 }] });
    r.params = { ...r.params, protocol: 'udp', bufferBytes: 1460 };
    r.link = emulatedLink({ rateBitsPerSec: 4e6, delayMs: 650, lossRatio: 0, windowBytes: null, mssBytes: 1448 } as never);
    const h = resultHeadline(r);
    assert.equal(Math.round(h.share?.capacityBitsPerSec ?? 0), Math.round((4e6 * 1460) / 1502));
    assert.equal(Math.round(h.share?.percent ?? 0), 100, 'what the satellite link carries of 1,460-byte datagrams, all of it');
  });

  it('no rate known, or one the run beat: no share; a window change without a rate says how to size it', () => {
    const r = seed();
    r.advice = [{ ...ADVICE, neededValue: "131,072 bytes per Mbit/s wanted (the path's rate is unknown: give it with --path-rate)" }];
    const h = resultHeadline(r);
    assert.equal(h.share, null);
    assert.deepEqual(h.noShare, { why: 'unknown', statedBitsPerSec: null });
    assert.equal(h.change, "raise the receive window on lab-7 (to size it, give the path's rate on the Test step)");
    r.pathRate = { bitsPerSecond: 1e6, source: 'given' };
    assert.equal(resultHeadline(r).share, null, '1.79 Mbit/s measured: 1 Mbit/s is not this path’s rate');
    assert.deepEqual(resultHeadline(r).noShare, { why: 'beaten', statedBitsPerSec: 1e6 });
  });
});

describe('run phase line', () => {
  const params = { streams: 2, bufferBytes: 131072, windowBytes: null, bytes: null, seconds: 30, direction: 'bidir' as const, intervalSeconds: 1 };
  const ctx = { partner: 'lab-7:5211', params, elapsedSeconds: 12.4, bytes: 0 };
  it('names each phase from the click, with the running figures and an indeterminate bar during set-up', () => {
    assert.equal(phaseLine('link', ctx), 'Setting up the emulated link…');
    assert.equal(phaseLine('hello', ctx), 'Connecting to lab-7:5211…');
    assert.equal(phaseLine('streams', ctx), 'Opening 4 streams (2 each way)…');
    assert.equal(phaseLine('running', ctx), 'Running: 12 of 30 s');
    assert.equal(phaseProgress('hello', ctx), null);
    assert.ok(Math.abs((phaseProgress('running', ctx) ?? 0) - 12.4 / 30) < 1e-9);
    const bytes = { ...ctx, params: { ...params, seconds: null, bytes: 10e6, direction: 'forward' as const }, bytes: 4.2e6 };
    assert.equal(phaseLine('running', bytes), 'Running: 4.20 MB of 10.00 MB');
    assert.equal(phaseProgress('running', bytes), 0.42);
  });
});

describe('failed start words', () => {
  it('each code goes back to the step that can fix it, in plain words, with the engine message kept second', () => {
    const f = startFailure('LH_ERR_REFUSED', '127.0.0.1:9 refused the connection: … longhaul listen', '127.0.0.1:9');
    assert.equal(f.step, 'pair');
    assert.doesNotMatch(f.text + f.fix, /longhaul /, 'no CLI command as the instruction');
    assert.match(f.detail, /longhaul listen/);
    for (const code of ['LH_ERR_NOT_PAIRED', 'LH_ERR_TIMEOUT', 'LH_ERR_PEER_GONE', 'LH_ERR_TLS'] as const)
      assert.equal(startFailure(code, '', 'x').step, 'pair', code);
    assert.equal(startFailure('LH_ERR_PARAMS_REJECTED', 'run refused: 200 streams', 'x').step, 'test');
    assert.equal(startFailure('LH_ERR_WORKER', 'boom', 'x').step, 'test');
  });
});
