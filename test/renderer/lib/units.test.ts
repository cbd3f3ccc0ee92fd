/** The renderer's units agree with the CLI's (electron/util/units.ts) on every sample. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as cli from '../../../electron/util/units.js';
import * as ui from '../../../renderer/src/lib/units.js';

const SIZES = ['64K', '20M', '650000', '1.5k', '1G', '128KiB', '3tb', '0', ' 7 mb '];
const RATES = ['4mbit', '1g', '56k', '100Mbps', '2.5gbit', '9600'];
const DURATIONS = ['10', '1.5s', '650ms', '2m', '1h', '250us'];
const BAD = ['', 'abc', '-5', '5 parsecs', '1..2'];
const NUMBERS = [null, 0, 999, 1000, 123_456, 9_999_999, 1e9, 2.5e12, Number.NaN];

describe('renderer units', () => {
  it('parse sizes, rates and durations as the CLI does', () => {
    for (const s of SIZES) assert.deepEqual(ui.parseSize(s), { ok: true, value: cli.parseSize(s) }, s);
    for (const s of RATES) assert.deepEqual(ui.parseRate(s), { ok: true, value: cli.parseRate(s) }, s);
    for (const s of DURATIONS) assert.deepEqual(ui.parseDuration(s), { ok: true, value: cli.parseDuration(s) }, s);
  });

  it('reject what the CLI rejects, with a message', () => {
    for (const s of BAD) {
      assert.throws(() => cli.parseSize(s));
      const r = ui.parseSize(s);
      assert.equal(r.ok, false, s);
      if (!r.ok) assert.ok(r.error.length > 5);
    }
    const neg = ui.parseSize('-5');
    assert.equal(!neg.ok && neg.error, 'cannot be negative');
  });

  it('format rates and bytes exactly like the CLI', () => {
    for (const n of NUMBERS) {
      assert.equal(ui.formatRate(n), cli.formatRate(n), String(n));
      if (n !== null && Number.isFinite(n)) assert.equal(ui.formatBytes(n), cli.formatBytes(n));
    }
  });

  it('names binary and distance units', () => {
    assert.equal(ui.formatBinaryBytes(650_000), '634.8 KiB');
    assert.equal(ui.formatBinaryBytes(20 * 1024 ** 2), '20.00 MiB');
    assert.deepEqual(ui.parseDistance('4000km'), { ok: true, value: 4e6 });
    assert.equal(ui.formatBitMetres(2.34e9 * 4e6), '9.36 Pbit·m/s');
    assert.equal(ui.formatSeconds(null), 'unknown');
  });
});
