import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { predict, rampRoundTrips, renoWindowBytes, windowAxis, type PathModel } from '../../electron/contract/what-if.js';
import { payloadFraction } from '../../electron/contract/wire.js';

const SEED: PathModel = { rttSeconds: 1.3, rateBitsPerSec: 4_000_000, lossRatio: null };

describe('what-if model', () => {
  const cases: { name: string; path: PathModel; windowBytes: number | null; streams: number; mssBytes: number; bps: number | null; bound: string }[] = [
    // 4 Mbit/s × 1448/1514 = 3.826 Mbit/s; 650,000 B / 1.3 s = 4.0 Mbit/s: the rate binds.
    {
      name: 'seed, the window that fills the path',
      path: SEED,
      windowBytes: 650_000,
      streams: 1,
      mssBytes: 1448,
      bps: 4e6 * payloadFraction(1448),
      bound: 'rate',
    },
    { name: 'seed, 8,760 B', path: SEED, windowBytes: 8760, streams: 1, mssBytes: 1448, bps: (8760 * 8) / 1.3, bound: 'window' },
    { name: "seed, 4 streams of today's window", path: SEED, windowBytes: 8760, streams: 4, mssBytes: 1448, bps: (4 * 8760 * 8) / 1.3, bound: 'window' },
    { name: 'MSS 536 on the seed link', path: SEED, windowBytes: 650_000, streams: 1, mssBytes: 536, bps: 4e6 * (536 / 602), bound: 'rate' },
    {
      name: '1 % loss, no rate, no window',
      path: { rttSeconds: 0.1, rateBitsPerSec: null, lossRatio: 0.01 },
      windowBytes: null,
      streams: 1,
      mssBytes: 1448,
      bps: (1448 * Math.sqrt(150) * 8) / 0.1,
      bound: 'loss',
    },
    {
      name: 'nothing bounds it',
      path: { rttSeconds: 0.1, rateBitsPerSec: null, lossRatio: 0 },
      windowBytes: null,
      streams: 2,
      mssBytes: 1448,
      bps: null,
      bound: 'none',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = predict(c.path, { windowBytes: c.windowBytes, streams: c.streams, mssBytes: c.mssBytes });
      assert.equal(p.bound, c.bound);
      if (c.bps === null) assert.equal(p.bitsPerSecond, null);
      else assert.ok(Math.abs(p.bitsPerSecond! - c.bps) < 1e-6 * c.bps, `${p.bitsPerSecond} vs ${c.bps}`);
    });
  }

  it("says ~3.8 Mbit/s and ~0.2 Mbit/s for the seed's examples", () => {
    assert.equal((predict(SEED, { windowBytes: 650_000, streams: 1, mssBytes: 1448 }).bitsPerSecond! / 1e6).toFixed(1), '3.8');
    assert.equal((predict(SEED, { windowBytes: 8760, streams: 4, mssBytes: 1448 }).bitsPerSecond! / 1e6).toFixed(1), '0.2');
  });

  it('slow start: 10 × MSS doubling per round trip up to the bytes in flight', () => {
    assert.equal(rampRoundTrips(14_480, 1448), 0);
    assert.equal(rampRoundTrips(14_481, 1448), 1);
    // 3.826 Mbit/s × 1.3 s / 8 = 621,697 B in flight: 14,480 × 2^6 = 926,720 ≥ it, 2^5 = 463,360 is not.
    const p = predict(SEED, { windowBytes: 650_000, streams: 1, mssBytes: 1448 });
    assert.equal(p.rampRoundTrips, 6);
    assert.ok(Math.abs(p.rampSeconds - 7.8) < 1e-9);
  });

  it("Reno's window: MSS × √(3/(2p)), none without loss", () => {
    assert.equal(renoWindowBytes(0, 1448), null);
    assert.equal(renoWindowBytes(null, 1448), null);
    assert.ok(Math.abs(renoWindowBytes(0.015, 1000)! - 10_000) < 1e-6);
  });

  it('window axis: powers of two past twice the target, with the given points', () => {
    const xs = windowAxis(650_000, [8760, 650_000]);
    assert.equal(xs[0], 4096);
    assert.ok(xs.includes(8760) && xs.includes(650_000));
    assert.ok(xs[xs.length - 1]! >= 1_300_000);
    assert.deepEqual(
      xs,
      [...xs].sort((a, b) => a - b),
    );
  });
});
