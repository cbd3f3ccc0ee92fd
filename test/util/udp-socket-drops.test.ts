import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { udpSocketDrops } from '../../electron/util/udp-socket-drops.js';

// Two rows as Linux 6.x prints them: a bound socket (no peer) and a connected one sharing its port.
const UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  100: 0100007F:A8A1 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 81234 2 0000000000000000 17
  101: 0100007F:1451 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 81240 2 0000000000000000 0
  102: 00000000:1451 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 81239 2 0000000000000000 3
`;
const UDP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
   5: 00000000000000000000000001000000:D431 00000000000000000000000000000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 9 2 0000000000000000 2
`;
const read = (path: string): string | null => (path.endsWith('udp') ? UDP : path.endsWith('udp6') ? UDP6 : null);

describe('UDP socket drops (/proc/net/udp)', () => {
  it("a bound socket's drops, by its port", () => {
    assert.equal(udpSocketDrops({ localPort: 0xa8a1, remotePort: 0 }, read, 'linux'), 17);
  });
  it('a connected socket beside a bound one on the same port: each its own row', () => {
    assert.equal(udpSocketDrops({ localPort: 0x1451, remotePort: 0xc350 }, read, 'linux'), 0);
    assert.equal(udpSocketDrops({ localPort: 0x1451, remotePort: 0 }, read, 'linux'), 3);
  });
  it('IPv6 sockets are in udp6', () => {
    assert.equal(udpSocketDrops({ localPort: 0xd431, remotePort: 0 }, read, 'linux'), 2);
  });
  it('unknown (null), never 0, where the OS does not say, the socket is not listed, or the tables cannot be read', () => {
    assert.equal(udpSocketDrops({ localPort: 0xa8a1, remotePort: 0 }, read, 'win32'), null);
    assert.equal(udpSocketDrops({ localPort: 1, remotePort: 0 }, read, 'linux'), null);
    assert.equal(
      udpSocketDrops({ localPort: 0xa8a1, remotePort: 0 }, () => null, 'linux'),
      null,
    );
  });
  it('two rows for one key (another process in this namespace on that port) are not one socket: null', () => {
    const twice = (path: string): string | null => (path.endsWith('udp') ? UDP + UDP.split('\n')[1] + '\n' : null);
    assert.equal(udpSocketDrops({ localPort: 0xa8a1, remotePort: 0 }, twice, 'linux'), null);
  });
});
