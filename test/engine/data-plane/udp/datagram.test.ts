/** The UDP headers: Longhaul's (with the run's tag) and iperf3's 12- and 16-byte ones. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  LONGHAUL_HEADER_BYTES,
  readIperf3Header,
  readLonghaulHeader,
  writeIperf3Header,
  writeLonghaulHeader,
} from '../../../../electron/engine/data-plane/udp/datagram.js';

const TAG = Buffer.from('0123456789abcdef', 'hex');

describe('UDP datagram headers', () => {
  it("Longhaul's: what is written is read back; another run's tag, a short or foreign datagram is refused", () => {
    const buf = Buffer.alloc(1460);
    writeLonghaulHeader(buf, { streamId: 3, seq: 2 ** 40 + 7, sentNs: 123_456_789_012n }, TAG);
    assert.deepEqual(readLonghaulHeader(buf, TAG), { streamId: 3, seq: 2 ** 40 + 7, sentNs: 123_456_789_012n });
    assert.equal(readLonghaulHeader(buf, Buffer.from('0123456789abcdee', 'hex')), null);
    assert.equal(readLonghaulHeader(buf.subarray(0, LONGHAUL_HEADER_BYTES - 1), TAG), null);
    assert.equal(readLonghaulHeader(Buffer.alloc(1460, 0x41), TAG), null);
  });

  it("iperf3's: seconds and microseconds of the wall clock, then a 32- or 64-bit count", () => {
    const wallNs = 1_733_400_000_123_456_000n;
    for (const counters64 of [false, true]) {
      const buf = Buffer.alloc(64);
      writeIperf3Header(buf, 77, wallNs, counters64);
      assert.equal(buf.readUInt32BE(0), 1_733_400_000);
      assert.equal(buf.readUInt32BE(4), 123_456);
      assert.deepEqual(readIperf3Header(buf, counters64), { seq: 77, sentNs: wallNs });
    }
    assert.equal(readIperf3Header(Buffer.alloc(12), true), null, 'a 12-byte datagram has no 64-bit count');
  });
});
