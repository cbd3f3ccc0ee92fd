/**
 * Discovery: the DNS-SD records a responder publishes and how a controller
 * reads them (unit), and a real advertise/browse over mDNS inside a fresh
 * network namespace that only has a loopback interface, so no multicast can
 * leave this machine (skipped, saying why, where namespaces are not allowed).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { advertisementFor, parseService } from '../../electron/discovery/records.js';

const CHILD = fileURLToPath(new URL('./mdns-child.js', import.meta.url));
const FP = 'ab'.repeat(32);

function namespaceProblem(): string | null {
  if (process.platform !== 'linux') return 'needs Linux network namespaces';
  const r = spawnSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up']);
  return r.status === 0 ? null : 'cannot create a network namespace (unshare -n and ip need root): multicast outside one could leave the machine';
}

describe('discovery (DNS-SD)', { timeout: 60_000 }, () => {
  it('advertises name, port and fingerprint; lists paired and unpaired, drops foreign or malformed services', () => {
    const ad = advertisementFor('lab-pc', 5211, FP);
    assert.deepEqual(ad, { name: 'lab-pc', type: 'longhaul', protocol: 'tcp', port: 5211, txt: { v: '1', fp: FP } });
    const paired = (f: string): boolean => f === FP;
    assert.deepEqual(parseService({ name: 'lab-pc', port: 5211, addresses: ['fe80::1', '192.0.2.7'], txt: ad.txt }, paired), {
      name: 'lab-pc',
      addresses: ['192.0.2.7', 'fe80::1'],
      port: 5211,
      fingerprint: FP,
      paired: true,
    });
    assert.equal(parseService({ name: 'other', port: 5211, txt: { v: '1', fp: 'cd'.repeat(32) } }, paired)?.paired, false);
    assert.equal(parseService({ name: 'bad-fp', port: 5211, txt: { v: '1', fp: 'xyz' } }, paired)?.fingerprint, null);
    assert.equal(parseService({ name: 'v2', port: 5211, txt: { v: '2', fp: FP } }, paired), null);
    assert.equal(parseService({ name: 'noport', port: 0, txt: ad.txt }, paired), null);
  });

  const skip = namespaceProblem();
  it('a responder advertised on 127.0.0.1 multicast is found, marked paired (inside an isolated network namespace)', { skip: skip ?? false }, () => {
    const script = 'ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec "$0" "$1"';
    const r = spawnSync('unshare', ['-n', 'sh', '-c', script, process.execPath, CHILD], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    const found = JSON.parse(r.stdout.trim().split('\n').pop()!) as { name: string; port: number; fingerprint: string; paired: boolean; addresses: string[] }[];
    const me = found.find((f) => f.name === 'lab-pc');
    assert.ok(me, `found: ${r.stdout}`);
    assert.equal(me.port, 5211);
    assert.equal(me.fingerprint, FP);
    assert.equal(me.paired, true);
  });
});
