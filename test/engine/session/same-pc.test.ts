/**
 * Whether a run's peer is this PC, from the address it is known by, with this PC's interfaces and
 * name given (no OS asked): loopback and own addresses are this PC, other addresses are not, and a
 * host name other than this PC's own cannot be told without resolving it.
 */
import assert from 'node:assert/strict';
import type os from 'node:os';
import { describe, it } from 'node:test';
import { hostOf, samePcOf } from '../../../electron/engine/session/same-pc.js';

/** This PC: a LAN address, a link-local IPv6 one, loopback. */
const interfaces = {
  lo: [{ address: '127.0.0.1' }, { address: '::1' }],
  eth0: [{ address: '192.168.1.20' }, { address: 'fe80::a00:27ff:fe4e:66a1' }],
  down0: undefined,
} as unknown as NodeJS.Dict<os.NetworkInterfaceInfo[]>;
const same = (address: string): boolean | null => samePcOf(address, interfaces, 'Bench-PC');

describe('hostOf', () => {
  it('takes the host from host, host:port, [v6]:port and bare IPv6, without a zone id, IPv4-mapped as IPv4', () => {
    const cases: [string, string][] = [
      ['192.0.2.1', '192.0.2.1'],
      ['192.0.2.1:5201', '192.0.2.1'],
      ['peer.example:5201', 'peer.example'],
      ['2001:db8::1', '2001:db8::1'],
      ['[2001:db8::1]:5201', '2001:db8::1'],
      ['[2001:db8::1]', '2001:db8::1'],
      ['fe80::1%eth0', 'fe80::1'],
      ['[fe80::1%eth0]:5201', 'fe80::1'],
      ['::ffff:10.0.0.2', '10.0.0.2'],
      ['[::FFFF:10.0.0.2]:80', '10.0.0.2'],
      ['::ffff:a00:2', '::ffff:a00:2'],
    ];
    for (const [address, host] of cases) assert.equal(hostOf(address), host, address);
  });
});

describe('samePcOf', () => {
  it('loopback, in any form, is this PC', () => {
    for (const a of ['127.0.0.1', '127.4.5.6:5201', '::1', '[::1]:5201', '::ffff:127.0.0.1', ' 127.0.0.1 ', 'localhost', 'LOCALHOST:5201']) {
      assert.equal(same(a), true, a);
    }
  });

  it("one of this PC's interface addresses is this PC, IPv6 in any case; any other address is not", () => {
    assert.equal(same('192.168.1.20:5201'), true);
    assert.equal(same('[FE80::A00:27FF:FE4E:66A1]:5201'), true);
    assert.equal(same('::ffff:192.168.1.20'), true);
    assert.equal(same('192.168.1.21'), false);
    assert.equal(same('10.0.0.20'), false, 'another namespace or container: a network stack of its own');
    assert.equal(same('2001:db8::20'), false);
    assert.equal(samePcOf('192.168.1.20', {}, 'Bench-PC'), false, 'not an interface of this PC');
  });

  it("a host name: this PC's own name (any case) is this PC, any other cannot be told without resolving it", () => {
    assert.equal(same('bench-pc'), true);
    assert.equal(same('BENCH-PC:5201'), true);
    assert.equal(same('other-pc'), null);
    assert.equal(same('other-pc.example:5201'), null);
  });
});
