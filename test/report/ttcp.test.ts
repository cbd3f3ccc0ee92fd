import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTtcp, ttcpLine } from '../../electron/report/ttcp.js';
import { makeResult } from '../helpers/result-fixtures.js';

describe('ttcp line', { timeout: 10_000 }, () => {
  it('matches ttcp exactly: 2^20-bit Mbit, rate from the unrounded time', () => {
    assert.equal(ttcpLine(536_870_912, 37.027), '536870912 bytes in 37.03 real seconds = 110.62 Mbit/sec');
    // From the rounded 37.03 s the rate would print 110.61: the line must not be computed that way.
    assert.notEqual(ttcpLine(536_870_912, 37.03), ttcpLine(536_870_912, 37.027));
  });

  it('renders a one-stream result as that line first', () => {
    const r = makeResult({ streams: [{ bytes: 536_870_912, seconds: 37.027, completions: 65_536 }] });
    const lines = formatTtcp(r).split('\n');
    assert.equal(lines[0], '536870912 bytes in 37.03 real seconds = 110.62 Mbit/sec');
    assert.ok(!lines.some((l) => l.startsWith('stream ')));
  });

  it('adds per-stream lines and a partial marker when needed', () => {
    const r = makeResult({
      streams: [
        { bytes: 1_048_576, seconds: 1, completions: 16 },
        { bytes: 2_097_152, seconds: 2, completions: 32 },
      ],
      partialReason: 'stopped by the user',
    });
    const text = formatTtcp(r);
    assert.match(text, /^stream 0: 1048576 bytes in 1\.00 real seconds = 8\.00 Mbit\/sec$/m);
    assert.match(text, /^# PARTIAL: stopped by the user$/m);
  });

  it('says unknown instead of dividing by an unknown time', () => {
    assert.equal(ttcpLine(10, null), '10 bytes in unknown real seconds = unknown Mbit/sec');
    assert.equal(ttcpLine(10, 0), '10 bytes in unknown real seconds = unknown Mbit/sec');
  });
});
