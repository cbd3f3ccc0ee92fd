/**
 * Through the link emulator the kernels only see the fast local hop, so the diagnosis reads the
 * emulated link's settings instead: RTT = 2 × its delay, the window its per-stream window × the
 * streams, the rate its rate. Which case it gives follows from those alone: a run held at window ÷ RTT
 * is the emulated window; with modelled loss and well below the rate, the loss (with where the run
 * fell against Reno's average, MSS × √(3 / 2p) ÷ RTT); a run too short for slow start to reach the
 * rate, the ramp; a run that bypassed the emulator part of the time, no single verdict. Every
 * emulated verdict carries the 'emulated-link' note.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnoseEmulated } from '../../electron/analysis/emulated-diagnosis.js';
import type { TotalResult } from '../../electron/contract/result.js';
import type { LinkInfo, LinkSettingsInfo } from '../../electron/contract/link-info.js';
import { emulatedLink, makeResult } from '../helpers/result-fixtures.js';

const MSS = 1448;
const BASE: LinkSettingsInfo = {
  delayMs: 300,
  jitterMs: 0,
  rateBitsPerSec: null,
  windowBytes: null,
  slowstart: false,
  lossRatio: 0,
  mssBytes: MSS,
};

function diagnose(over: Partial<LinkSettingsInfo>, bitsPerSecond: number, seconds: number, streams = 1, bypass = false) {
  const settings = { ...BASE, ...over };
  const link = emulatedLink(settings) as LinkInfo;
  if (bypass) link.bypassToggles = [{ t: 2, bypass: true }];
  const r = makeResult({ streams: Array.from({ length: streams }, () => ({ bytes: (bitsPerSecond / 8 / streams) * seconds, seconds, completions: 100 })) });
  const total: TotalResult = { ...r.total, bitsPerSecond, seconds };
  return diagnoseEmulated(link, settings, 'controllerToResponder', total, r.streams, null);
}

describe('emulated diagnosis', () => {
  it("a run held at the emulated window ÷ 2 × delay is the emulated window's, summed over streams", () => {
    // 2 streams × 64 KiB over 0.6 s: 1.75 Mbit/s of window.
    const cap = (2 * 65_536 * 8) / 0.6;
    const d = diagnose({ windowBytes: 65_536, rateBitsPerSec: 100e6 }, 0.97 * cap, 30, 2);
    assert.deepEqual([d.verdict, d.case], ['window-limited', 'window-limited/emulated-window']);
    assert.deepEqual([d.figures?.window?.value, d.figures?.rtt?.value], [2 * 65_536, 0.6]);
    assert.ok(d.notes?.includes('emulated-link'));
  });

  it("modelled loss well below the rate: the loss, placed against Reno's average window", () => {
    const renoCap = (MSS * Math.sqrt(3 / (2 * 0.01)) * 8) / 0.6; // ≈ 236 kbit/s
    const band = (measured: number) => {
      const d = diagnose({ lossRatio: 0.01, rateBitsPerSec: 10e6 }, measured, 60);
      assert.equal(d.case, 'congestion-limited/emulated-loss', `at ${measured} bit/s`);
      return d.facts?.emulatedLoss?.band;
    };
    assert.equal(band(renoCap), 'within');
    assert.equal(band(renoCap / 2), 'below', 'under the average ÷ 1.5');
    assert.equal(band(renoCap * 1.2), 'above', 'over the average × 1.1');
  });

  it('a run too short for slow start to reach the rate is the ramp, with its round trips', () => {
    // 10 Mbit/s × 0.6 s = 750,000 B in flight; from 10 × 1448 B, doubling: 6 round trips, 3.6 s.
    const d = diagnose({ slowstart: true, rateBitsPerSec: 10e6 }, 2e6, 4);
    assert.equal(d.case, 'congestion-limited/emulated-slow-start');
    assert.equal(d.facts?.ramp?.roundTrips, 6);
    assert.ok(d.notes?.includes('emulated-link'));
    // Four ramps long (14.4 s) it is not the ramp any more.
    assert.notEqual(diagnose({ slowstart: true, rateBitsPerSec: 10e6 }, 2e6, 15).case, 'congestion-limited/emulated-slow-start');
  });

  it('a run that bypassed the emulator part of the time gets no single verdict', () => {
    const d = diagnose({ windowBytes: 65_536 }, 800_000, 30, 1, true);
    assert.deepEqual([d.verdict, d.case], ['unknown', 'unknown/emulator-bypassed']);
    assert.deepEqual(d.facts?.bypass, [{ bypass: true, t: 2 }]);
  });
});
