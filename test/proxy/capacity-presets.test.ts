/**
 * `--capacity` through the link emulator at its presets: the path Longhaul measures is the
 * emulated one, so the figure must be the preset's rate as payload (rate × the emulator's
 * payload share, contract/wire.ts) within ±10 %, on the 600 ms and the 1.3 s round trips.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { findPreset } from '../../electron/proxy/presets.js';
import { payloadFraction } from '../../electron/contract/wire.js';
import { cli } from '../helpers/cli.js';

describe('--capacity through the link emulator presets', { timeout: 240_000 }, () => {
  for (const name of ['geostationary', 'satellite']) {
    it(`${name}: within ±10 % of the preset's payload rate`, { timeout: 120_000 }, async (t) => {
      const preset = findPreset(name);
      assert.ok(preset?.settings.rateBitsPerSec, name);
      const expected = preset.settings.rateBitsPerSec * payloadFraction(preset.settings.mssBytes);
      const file = path.join(os.tmpdir(), `longhaul-capacity-${name}-${process.pid}.json`);
      try {
        const r = await cli(['loopback', '--link', name, '-t', '3', '--capacity', '--json', file], 110_000).done;
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const res = JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
        const c = res.capacity;
        t.diagnostic(`capacity ${JSON.stringify({ ...c, slices: undefined })}; expected payload ${(expected / 1e6).toFixed(3)} Mbit/s`);
        assert.ok(c && c.payloadBitsPerSecond !== null, JSON.stringify(c));
        // The emulator hands the bytes on over loopback, whose segments are sends of any size, not the emulated link's packets.
        assert.equal(c.series, 'receiver-in-order');
        const ratio = c.payloadBitsPerSecond / expected;
        assert.ok(Math.abs(ratio - 1) <= 0.1, `capacity / preset payload rate = ${ratio.toFixed(3)}`);
        assert.equal(c.lowerBound, null, 'the emulated path, not the tuned run, was the limit');
      } finally {
        await rm(file, { force: true });
      }
    });
  }
});
