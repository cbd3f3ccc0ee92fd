/**
 * The units every door shares (electron/contract/units.ts): what each typed
 * quantity means, what is refused and how the CLI names the flag, and the
 * formatters' units. One copy of the rules, so no test keeps two in step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as u from '../../electron/contract/units.js';
import * as cli from '../../electron/util/units.js';

describe('units', () => {
  it('sizes are binary, rates decimal bits, durations seconds', () => {
    const sizes: [string, number][] = [
      ['64K', 65_536],
      ['20M', 20_971_520],
      ['650000', 650_000],
      ['1.5k', 1536],
      ['128KiB', 131_072],
      ['3tb', 3 * 1024 ** 4],
      ['0', 0],
      [' 7 mb ', 7 * 1024 ** 2],
    ];
    for (const [s, v] of sizes) assert.deepEqual(u.parseSize(s), { ok: true, value: v }, s);
    const rates: [string, number][] = [
      ['4mbit', 4e6],
      ['1g', 1e9],
      ['56k', 56e3],
      ['100Mbps', 1e8],
      ['2.5gbit', 2.5e9],
      ['9600', 9600],
      // The app's own notation (formatRate), typed back.
      ['4 Mbit/s', 4e6],
      ['1Gbit/s', 1e9],
      ['56 kbit/s', 56e3],
      ['9600 bit/s', 9600],
    ];
    for (const [s, v] of rates) assert.deepEqual(u.parseRate(s), { ok: true, value: v }, s);
    const durations: [string, number][] = [
      ['10', 10],
      ['1.5s', 1.5],
      ['650ms', 0.65],
      ['2m', 120],
      ['1h', 3600],
      ['250us', 250e-6],
    ];
    for (const [s, v] of durations) {
      const r = u.parseDuration(s);
      assert.ok(r.ok && Math.abs(r.value - v) < 1e-12, s);
    }
    assert.deepEqual(u.parseDistance('4000km'), { ok: true, value: 4e6 });
    assert.equal(u.parseSize('64K/s').ok, false, 'only rates take "/s"');
    assert.equal(u.parseDuration('10s/s').ok, false);
    assert.equal(u.parseRate('4 Mbyte/s').ok, false);
  });

  it('refuses with a message for a person, and the CLI names the flag', () => {
    for (const s of ['', 'abc', '5 parsecs', '1..2']) {
      const r = u.parseSize(s);
      assert.equal(r.ok, false, s);
      if (!r.ok) assert.match(r.error, s.trim() === '' ? /^required, e\.g\./ : /is not valid, e\.g\. 128K/);
      assert.throws(() => cli.parseSize(s, '--window'), {
        code: 'LH_ERR_BAD_ARGUMENT',
        message: new RegExp(`^--window: "${s.replace('.', '\\.')}" is not a valid size`),
      });
    }
    assert.deepEqual(u.parseSize('-5'), { ok: false, error: 'cannot be negative' });
    assert.deepEqual(u.parseSize('9e20'), { ok: false, error: 'too large' });
    assert.throws(() => cli.parseSize('9e20', '-n'), /-n: "9e20" is too large/);
    assert.equal(cli.parseRate('4mbit'), 4e6);
    assert.throws(() => cli.parseDuration('soon', '--pause'), /--pause: "soon" is not a valid duration/);
  });

  it('formats with the unit named, and unknown for what nobody measured', () => {
    assert.equal(u.formatRate(953_210_000), '953.21 Mbit/s');
    assert.equal(u.formatRate(999), '999 bit/s');
    assert.equal(u.formatRate(null), 'unknown');
    assert.equal(u.formatRate(Number.NaN), 'unknown');
    assert.equal(u.formatRateShort(54_000), '54 kbit/s');
    assert.equal(u.formatRateShort(4e6), '4.0 Mbit/s');
    // A model bound with no rate term (8 MB over a 5 µs loopback RTT): Tbit/s, digits grouped.
    assert.equal(u.formatRateShort(134_218e9), '134 Tbit/s');
    assert.equal(u.formatRateShort(2.5e12), '2.5 Tbit/s');
    assert.equal(u.formatRateShort(1_234_567e12), '1,234,567 Tbit/s');
    assert.equal(u.formatRate(134_218.4e9), '134.22 Tbit/s');
    assert.equal(u.formatRate(9_876.5e12), '9,876.50 Tbit/s');
    // Axis ticks: the round number itself, no padding.
    assert.equal(u.formatRateTick(120e9), '120 Gbit/s');
    assert.equal(u.formatRateTick(2.5e6), '2.5 Mbit/s');
    assert.equal(u.formatRateTick(0.25e9), '250 Mbit/s');
    assert.equal(u.formatRateTick(0), '0 bit/s');
    assert.equal(u.formatRateTick(1.05e6), '1.05 Mbit/s');
    assert.equal(u.formatBytes(1_250_000_000), '1.25 GB');
    assert.equal(u.formatBytes(undefined), 'unknown');
    assert.equal(u.formatBinaryBytes(650_000), '634.8 KiB');
    assert.equal(u.formatBinaryBytes(20 * 1024 ** 2), '20.00 MiB');
    assert.equal(u.formatRtt(1.3), '1.30 s');
    assert.equal(u.formatRtt(27e-6), '27 µs');
    assert.equal(u.formatBitMetres(2.34e9 * 4e6), '9.36 Pbit·m/s');
    assert.equal(u.formatSeconds(null), 'unknown');
    assert.equal(u.groupDigits(1_234_567), '1,234,567');
  });

  it('writes a run clock time with two decimals, a late start below zero as it is, never -0.00', () => {
    assert.equal(u.formatClock(-0.0012), '0.00', 'a first byte 1.2 ms before the clock started');
    assert.equal(u.formatClock(-0.004999), '0.00');
    assert.equal(u.formatClock(-0.395), '-0.40', 'a receiver whose event loop was blocked at the start');
    assert.equal(u.formatClock(1), '1.00');
    assert.equal(u.formatClock(12.345), '12.35');
  });
});
