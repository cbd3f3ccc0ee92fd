/**
 * The paired peers' file: a fingerprint is remembered once (pairing again replaces the record), a
 * taken name gets a numbered suffix so `--forget NAME` stays unambiguous, forgetting takes a name or
 * a unique fingerprint prefix of at least 8 hex digits (never an ambiguous one), addresses are kept
 * as the peer typed them (no ::ffff: prefix), another process's change to the file is seen, and a
 * damaged file is an LH_ERR_IDENTITY error, never silently emptied. Each test has its own temp dir.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PeerStore } from '../../electron/security/peer-store.js';
import { tmpDir } from '../helpers/tmp.js';

const FP_A = 'ab'.repeat(32);
const FP_B = 'ac'.repeat(32);
const AT = new Date('2026-12-01T10:00:00Z');

describe('peer store', () => {
  it('a taken name gets a suffix; pairing the same fingerprint again replaces its record', (t) => {
    const file = path.join(tmpDir(t), 'peers.json');
    const store = PeerStore.open(file);
    assert.equal(existsSync(file), false, 'opening does not create the file');
    assert.equal(store.add('lab', FP_A, '10.0.0.1', AT).name, 'lab');
    assert.equal(store.add('lab', FP_B, '10.0.0.2', AT).name, 'lab-2');
    store.add('bench', FP_A, '10.0.0.3', AT);
    assert.deepEqual(
      store.list().map((p) => [p.name, p.fingerprint]),
      [
        ['lab-2', FP_B],
        ['bench', FP_A],
      ],
    );
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o077, 0, 'owner-only');
  });

  it('keeps an IPv4 address seen through a dual-stack socket as a.b.c.d, and notes when it was seen', (t) => {
    const store = PeerStore.open(path.join(tmpDir(t), 'peers.json'));
    assert.equal(store.add('lab', FP_A, '::ffff:192.168.1.20', AT).address, '192.168.1.20');
    store.seen(FP_A, '::ffff:192.168.1.21', new Date('2026-12-02T00:00:00Z'));
    assert.deepEqual([store.find(FP_A)?.address, store.find(FP_A)?.lastSeen], ['192.168.1.21', '2026-12-02T00:00:00.000Z']);
    store.seen(FP_B, '10.9.9.9'); // not paired: nothing is added
    assert.equal(store.list().length, 1);
  });

  it('forgets by name or by a unique fingerprint prefix of 8 or more, never an ambiguous or short one', (t) => {
    const store = PeerStore.open(path.join(tmpDir(t), 'peers.json'));
    store.add('one', FP_A, null, AT);
    store.add('two', FP_B, null, AT);
    assert.equal(store.forget('a'), null, 'both fingerprints start with a');
    assert.equal(store.forget('abab'), null, 'shorter than 8');
    assert.equal(store.forget('AB:AB:AB:AB')?.name, 'one', 'case and colons do not matter');
    assert.equal(store.forget('two')?.fingerprint, FP_B);
    assert.deepEqual(store.list(), []);
  });

  it("sees another process's change to the file", (t) => {
    const file = path.join(tmpDir(t), 'peers.json');
    const listening = PeerStore.open(file);
    PeerStore.open(file).add('lab', FP_A, null, AT); // a `longhaul pair` beside a running `listen`
    assert.equal(listening.find(FP_A)?.name, 'lab');
  });

  it('a damaged file is an LH_ERR_IDENTITY error and is left as it was', (t) => {
    const file = path.join(tmpDir(t), 'peers.json');
    writeFileSync(file, '{"schema":"longhaul.peers/1","peers":[{"name":"x"}]}');
    assert.throws(() => PeerStore.open(file), { code: 'LH_ERR_IDENTITY' });
    assert.match(readFileSync(file, 'utf8'), /"name":"x"/);
  });

  it('a memory store never writes a file and keeps its own copies', () => {
    const seed = { name: 'm', fingerprint: FP_A, address: null, pairedAt: AT.toISOString(), lastSeen: AT.toISOString() };
    const store = PeerStore.memory([seed]);
    seed.name = 'changed';
    assert.equal(store.find(FP_A)?.name, 'm');
  });
});
