/**
 * How bytes move on a PC (electron/native/data-path.ts), from the switches, the addon and the OS:
 * each choice and its reason. Data connections are owned by the addon on Windows and by Node
 * elsewhere, LONGHAUL_DATA_CONN forcing either (`windows` another name for `owned`, so a search for
 * "windows" finds the switch); the byte loop, the UDP sender, pacing, the send backlog and the link
 * emulator's relay fall back on Node or the OS default without the addon, each saying why; Windows
 * relays in JavaScript; the switches force each. And this process's value follows a switch flipped
 * between runs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataPath, resolveDataPath } from '../../electron/native/data-path.js';
import type { NativeApi } from '../../electron/native/native-api.js';
import { DATA_CONN_ENV, DATA_PATH_ENV, PACING_ENV, readSwitches, RELAY_ENV, SEND_BACKLOG_ENV } from '../../electron/native/switches.js';

// Only the fields the data path reads: an addon with everything, and one that lacks the optional parts.
const full = {
  owned: {},
  pumpSupported: true,
  udpSendSupported: true,
  maxPacingRate: {},
  setNotSentLowat: () => undefined,
  startRelay: () => undefined,
} as unknown as NativeApi;
const bare = { pumpSupported: true } as unknown as NativeApi;
const loaded = (api: NativeApi) => ({ api, reason: null });
const none = { api: null, reason: 'the native socket addon is not built (no compiler)' };
const path = (env: NodeJS.ProcessEnv, native: { api: NativeApi | null; reason: string | null }, platform: NodeJS.Platform) =>
  resolveDataPath(readSwitches(env), native, platform);

describe('the data path', () => {
  it('owns data connections in the addon on Windows and in Node elsewhere by default', () => {
    assert.equal(path({}, loaded(full), 'win32').conn.mode, 'owned');
    assert.equal(path({}, loaded(full), 'linux').conn.mode, 'node');
  });

  it('takes owned, windows (the same) and node from LONGHAUL_DATA_CONN', () => {
    assert.equal(path({ [DATA_CONN_ENV]: 'owned' }, loaded(full), 'linux').conn.mode, 'owned');
    assert.equal(path({ [DATA_CONN_ENV]: 'windows' }, loaded(full), 'linux').conn.mode, 'owned');
    assert.equal(path({ [DATA_CONN_ENV]: 'node' }, loaded(full), 'win32').conn.mode, 'node');
    assert.equal(path({ [DATA_CONN_ENV]: 'sideways' }, loaded(full), 'win32').conn.mode, 'owned', 'anything else: the default');
  });

  it('hands an owned socket to its worker by duplicating it on Windows and as a Node handle elsewhere', () => {
    assert.equal(path({}, loaded(full), 'win32').conn.handover, 'duplicate');
    assert.equal(path({ [DATA_CONN_ENV]: 'owned' }, loaded(full), 'linux').conn.handover, 'node-handle');
    assert.equal(path({}, loaded(full), 'linux').conn.handover, null, "Node's sockets travel as Node's handles");
    assert.equal(path({}, loaded(bare), 'win32').conn.handover, null, 'fallen back on Node: nothing to hand over');
  });

  it('falls back on Node, saying why, when the addon cannot own connections or the Node loop is asked for', () => {
    const c = path({ [DATA_CONN_ENV]: 'windows' }, none, 'linux').conn;
    assert.deepEqual(c, { mode: 'node', reason: 'the native socket addon is not loaded', handover: null });
    assert.match(path({}, loaded(bare), 'win32').conn.reason ?? '', /cannot own data connections/);
    assert.match(path({ [DATA_PATH_ENV]: 'node' }, loaded(full), 'win32').conn.reason ?? '', /LONGHAUL_DATA_PATH=node/);
  });

  it("with the whole addon on Linux: the addon's loop, sender, backlog bound and relay, the kernel's pacing first", () => {
    const p = path({}, loaded(full), 'linux');
    assert.deepEqual(p.addon, { loaded: true, reason: null });
    assert.deepEqual(p.tcpIo, { io: 'native', reason: null });
    assert.deepEqual(p.udpSendIo, { io: 'native', reason: null });
    assert.deepEqual(p.pacing, { mode: 'kernel-first', reason: null });
    assert.deepEqual(p.sendBacklog, { bounded: true, reason: null });
    assert.deepEqual(p.relay, { kind: 'native', reason: null });
  });

  it("without the addon every choice falls back and gives the addon's reason", () => {
    const p = path({}, none, 'linux');
    assert.deepEqual(p.addon, { loaded: false, reason: none.reason });
    for (const c of [p.tcpIo, p.udpSendIo]) assert.deepEqual(c, { io: 'node', reason: none.reason });
    assert.deepEqual(p.sendBacklog, { bounded: false, reason: none.reason });
    assert.deepEqual(p.relay, { kind: 'js', reason: none.reason });
    assert.deepEqual(p.pacing, { mode: 'own', reason: 'the native addon is not loaded, so the kernel cannot be asked to pace' });
  });

  it('an addon without the optional parts says which part is missing; Windows relays in JavaScript', () => {
    const p = path({}, loaded(bare), 'linux');
    assert.equal(p.tcpIo.io, 'native');
    assert.match(p.udpSendIo.reason ?? '', /no UDP sender/);
    assert.match(p.sendBacklog.reason ?? '', /TCP_NOTSENT_LOWAT/);
    assert.match(p.relay.reason ?? '', /no relay thread/);
    assert.match(path({}, loaded(full), 'win32').relay.reason ?? '', /Node exposes no SOCKET/);
    assert.deepEqual(p.pacing, { mode: 'own', reason: 'this build of the native addon cannot set SO_MAX_PACING_RATE' });
    assert.deepEqual(path({}, loaded(bare), 'win32').pacing, { mode: 'own', reason: "Windows has no per-socket pacing cap (SO_MAX_PACING_RATE is Linux's)" });
  });

  it('each switch forces its choice and is named in the reason', () => {
    const p = path({ [DATA_PATH_ENV]: 'node', [PACING_ENV]: 'own', [SEND_BACKLOG_ENV]: 'unbounded', [RELAY_ENV]: 'js' }, loaded(full), 'linux');
    assert.deepEqual(p.tcpIo, { io: 'node', reason: 'LONGHAUL_DATA_PATH=node' });
    assert.deepEqual(p.udpSendIo, { io: 'node', reason: 'LONGHAUL_DATA_PATH=node' });
    assert.equal(p.pacing.mode, 'own');
    assert.match(p.pacing.reason ?? '', /LONGHAUL_PACING=own/);
    assert.deepEqual(p.sendBacklog, { bounded: false, reason: 'LONGHAUL_SEND_BACKLOG=unbounded' });
    assert.deepEqual(p.relay.kind, 'js');
    assert.match(p.relay.reason ?? '', /LONGHAUL_RELAY=js/);
  });

  it("this process's value follows a switch flipped between runs", () => {
    const before = dataPath({}, 'linux');
    assert.equal(dataPath({}, 'linux'), before, 'the same value while nothing changes');
    const flipped = dataPath({ [DATA_PATH_ENV]: 'node' }, 'linux');
    assert.deepEqual(flipped.tcpIo, { io: 'node', reason: 'LONGHAUL_DATA_PATH=node' });
  });
});
