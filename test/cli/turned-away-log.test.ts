/**
 * The listen log under a flood: a bounded number of lines per interval, the
 * counts per address, names made printable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnedAwayLog } from '../../electron/cli/turned-away-log.js';

function log(): { lines: string[]; tally: TurnedAwayLog } {
  const lines: string[] = [];
  const tally = new TurnedAwayLog({ write: (l) => lines.push(l), intervalMs: 10_000 });
  return { lines, tally };
}

describe('turned-away log', () => {
  it('tells the first connection from an address at once and counts the rest: 3 lines for 3,413 connections', () => {
    const { lines, tally } = log();
    for (let i = 0; i < 3400; i++) tally.note(`127.0.0.2:${40_000 + (i % 20_000)}`, 'not TLS');
    for (let i = 0; i < 12; i++) tally.note(`::ffff:127.0.0.2:${i + 1}`, 'sent nothing identifiable within 10000 ms');
    tally.note('127.0.0.3:5000', 'not TLS');
    assert.deepEqual(lines, ['turned away 127.0.0.2:40000: not TLS', 'turned away 127.0.0.3:5000: not TLS']);
    tally.close();
    assert.equal(lines.length, 3);
    assert.equal(lines[2], 'turned away 3,411 more connections from 127.0.0.2 (3,399 not TLS; 12 sent nothing identifiable within 10000 ms) in the last 10 s');
    tally.close(); // idempotent: nothing new to tell
    assert.equal(lines.length, 3);
  });

  it('40 addresses: at most 5 told at once and 5 by name, the rest as one total', () => {
    const { lines, tally } = log();
    for (let round = 0; round < 100; round++) for (let a = 2; a < 42; a++) tally.note(`127.0.0.${a}:${1000 + round}`, 'dropped: too many');
    tally.flush();
    assert.equal(lines.length, 5 + 5 + 1, lines.join('\n'));
    // The 5 told at once have 99 more each, the others 100: those 30 are the ones named, and 30 × 100 + 5 × 99 the rest.
    assert.match(lines[5]!, /^turned away 100 connections from 127\.0\.0\.\d+ \(dropped: too many\) in the last 10 s$/);
    assert.equal(lines.at(-1), 'turned away 3,495 connections from 35 other addresses in the last 10 s');
    tally.close();
  });

  it('makes what it prints printable', () => {
    const { lines, tally } = log();
    tally.note('10.0.0.1:1', 'TLS handshake failed: \u001b[2Jcleared\u202e');
    tally.note('10.0.0.1:2', 'x'.repeat(500));
    tally.close();
    assert.equal(lines[0], 'turned away 10.0.0.1:1: TLS handshake failed: \\u{1b}[2Jcleared\\u{202e}');
    assert.ok(lines[1]!.length < 220, lines[1]);
    // eslint-disable-next-line no-control-regex -- what must not be there
    assert.ok(lines.every((l) => !/[\u0000-\u001f]/.test(l)));
  });
});
