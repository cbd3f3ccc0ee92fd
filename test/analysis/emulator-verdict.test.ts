/**
 * When is the link emulator on this PC, not the emulated link, the limit (electron/analysis/emulator-verdict.ts)?
 * Only when it fell behind AND the run fell short of what the emulated link allows, where a modelled loss's
 * Reno ceiling counts among the link's limits: on a lossy link a run that reached what the loss allows was
 * held by the loss, however busy the emulator was.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LinkInfo, LinkSettingsInfo } from '../../electron/contract/link-info.js';
import { emulatorLag } from '../../electron/analysis/emulator-verdict.js';
import { renoWindowBytes } from '../../electron/contract/what-if.js';

/** The lossy-wifi preset's settings: 5 ms each way, 30 Mbit/s, 1 % modelled loss, MSS 1448. */
const LOSSY: LinkSettingsInfo = { delayMs: 5, jitterMs: 2, rateBitsPerSec: 30e6, windowBytes: null, slowstart: true, lossRatio: 0.01, mssBytes: 1448 };

/** A link record whose emulator used `cpuShare` of this 2-core PC's CPU for the 2 s it carried data, nothing late. */
function link(settings: LinkSettingsInfo, cpuShare: number): LinkInfo {
  const dir = { releasedBytes: 3e6, activeSeconds: 2, lateBytes: 0, maxLateMs: 1, behindSeconds: 0 };
  return {
    emulator: 'longhaul-proxy',
    preset: null,
    settings,
    chains: { up: [], down: [] },
    modelCeilingBitsPerSec: null,
    bypassToggles: [],
    note: '',
    emulatorWatch: { relay: 'native', relayReason: null, lateMs: 10, cpuSeconds: cpuShare * 2 * 2, cores: 2, up: dir, down: dir },
  } as LinkInfo;
}

/** Reno's average under 1 % loss over the 10 ms RTT, one stream: 1448 × √150 × 8 / 0.01 ≈ 14.2 Mbit/s. */
const RENO = (renoWindowBytes(0.01, 1448)! * 8) / 0.01;

describe('emulator verdict', () => {
  it('a lossy link: a run that reached the loss ceiling (within the loss verdict band) was held by the loss, not a busy emulator', () => {
    // The emulator took half the PC's CPU (a busy machine), the run carried 0.8 of Reno's average: the loss explains it.
    assert.equal(emulatorLag(link(LOSSY, 0.5), 'up', 0.8 * RENO, 1), null);
    // Compared with the 30 Mbit/s rate alone (the old rule) the same run was "short" and read as emulator-limited.
    assert.ok(0.8 * RENO < 0.9 * 30e6 * (1448 / 1514));
  });

  it('a lossy link: a busy emulator and a run far below what the loss allows is the emulator', () => {
    const lag = emulatorLag(link(LOSSY, 0.5), 'up', 0.4 * RENO, 1);
    assert.ok(lag, 'the emulator fell behind and the run fell short');
    assert.ok(Math.abs(lag.modelBitsPerSecond! / RENO - 1) < 1e-9, 'what the link allows is the loss ceiling');
  });

  it('a loss-free link keeps the 90 % line on the rate, and an emulator that kept up is never the limit', () => {
    const clean = { ...LOSSY, lossRatio: 0 };
    const rate = 30e6 * (1448 / 1514);
    assert.ok(emulatorLag(link(clean, 0.5), 'up', 0.85 * rate, 1), 'short of 90 % of the rate with the emulator behind');
    assert.equal(emulatorLag(link(clean, 0.5), 'up', 0.95 * rate, 1), null);
    assert.equal(emulatorLag(link(clean, 0.1), 'up', 0.2 * rate, 1), null, 'it kept up: the cause is elsewhere');
  });
});
