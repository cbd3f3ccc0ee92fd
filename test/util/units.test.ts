import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration, parseRate, parseSize } from '../../electron/util/units.js';
import { formatRate } from '../../electron/contract/units.js';
import { ArgumentError } from '../../electron/util/errors.js';

describe('units', () => {
  it('sizes are binary, as the seed registry values are', () => {
    assert.equal(parseSize('650000'), 650_000);
    assert.equal(parseSize('64K'), 65_536);
    assert.equal(parseSize('64KiB'), 65_536);
    assert.equal(parseSize('20M'), 20_971_520); // TcpWindowSize 20 MB (20971520)
    assert.equal(parseSize('20MB'), 20_971_520);
    assert.equal(parseSize('1g'), 1024 ** 3);
    assert.equal(parseSize('1.5K'), 1536);
  });

  it('rates are decimal bits', () => {
    assert.equal(parseRate('4mbit'), 4_000_000);
    assert.equal(parseRate('4Mbps'), 4_000_000);
    assert.equal(parseRate('1g'), 1e9);
    assert.equal(parseRate('56k'), 56_000);
    assert.equal(parseRate('9600'), 9600);
  });

  it('durations: ms, s, m; a bare number is seconds', () => {
    assert.equal(parseDuration('650ms'), 0.65);
    assert.equal(parseDuration('1.3s'), 1.3);
    assert.equal(parseDuration('2m'), 120);
    assert.equal(parseDuration('10'), 10);
  });

  it('garbage is an ArgumentError naming the flag', () => {
    for (const [fn, text] of [
      [parseSize, '12Q'],
      [parseSize, 'abc'],
      [parseSize, ''],
      [parseRate, '4 furlongs'],
      [parseDuration, '-1'],
      [parseDuration, '1..2s'],
    ] as const) {
      assert.throws(
        () => fn(text, '--flag'),
        (e: unknown) => e instanceof ArgumentError && e.flag === '--flag' && e.message.includes(`"${text}"`),
      );
    }
  });

  it('formats rates with an explicit decimal unit, unknown for nothing', () => {
    assert.equal(formatRate(957_369_000), '957.37 Mbit/s');
    assert.equal(formatRate(53_908), '53.9 kbit/s');
    assert.equal(formatRate(21.4e9), '21.40 Gbit/s');
    assert.equal(formatRate(null), 'unknown');
    assert.equal(formatRate(Infinity), 'unknown');
  });
});
