/**
 * Who owns a run's data connections: Windows' data path (`owned`) by default on win32, Node's
 * sockets elsewhere, and LONGHAUL_DATA_CONN forcing either, `windows` being another name for
 * `owned` so a search for "windows" finds the switch too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseDataConn, DATA_CONN_ENV } from '../../electron/native/data-conn.js';
import type { NativeApi } from '../../electron/native/native-api.js';

// Only the two fields chooseDataConn reads: an addon that can own connections.
const canOwn = { owned: {}, pumpSupported: true } as unknown as NativeApi;

describe('data-connection mode', () => {
  it('is owned on Windows and Node elsewhere by default', () => {
    assert.equal(chooseDataConn(canOwn, 'win32', {}).mode, 'owned');
    assert.equal(chooseDataConn(canOwn, 'linux', {}).mode, 'node');
  });

  it('takes owned, windows (the same) and node from the environment', () => {
    assert.equal(chooseDataConn(canOwn, 'linux', { [DATA_CONN_ENV]: 'owned' }).mode, 'owned');
    assert.equal(chooseDataConn(canOwn, 'linux', { [DATA_CONN_ENV]: 'windows' }).mode, 'owned');
    assert.equal(chooseDataConn(canOwn, 'win32', { [DATA_CONN_ENV]: 'node' }).mode, 'node');
  });

  it('falls back on Node, saying why, when the addon cannot own connections', () => {
    const c = chooseDataConn(null, 'linux', { [DATA_CONN_ENV]: 'windows' });
    assert.equal(c.mode, 'node');
    assert.match(c.reason ?? '', /addon is not loaded/);
  });
});
