/**
 * The `longhaul` command's exit codes in the Windows build of Node under Wine
 * (README: 0 ok, 2 bad arguments), and its messages on Windows' console streams.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BIN } from '../helpers/processes.js';
import { laneReady, runWindowsNode, toWindowsPath, useWindowsLane } from './wine-node.js';

describe('longhaul command under Wine', { timeout: 120_000 }, () => {
  useWindowsLane();

  it('--help prints the usage and exits 0', async (t) => {
    if (!laneReady(t)) return;
    const r = await runWindowsNode([toWindowsPath(BIN), '--help']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Usage: longhaul \[options\] \[command\]/m);
    assert.match(r.stdout, /\bloopback\b/);
  });

  it('a misspelled flag exits 2, naming the flag and the one meant', async (t) => {
    if (!laneReady(t)) return;
    const r = await runWindowsNode([toWindowsPath(BIN), 'loopback', '--strams', '2']);
    assert.equal(r.code, 2, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    assert.match(r.stderr, /unknown option '--strams'/);
    assert.match(r.stderr, /--streams/);
    assert.equal(r.stdout, '');
  });
});
