/** Longhaul's own pacing on Node's loop: the bucket's rate over time, and its burst bound after an idle stretch. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from '../../../../electron/engine/data-plane/data-worker/token-bucket.js';

const MS = 1_000_000n;

/** Write `want`-byte chunks as the bucket allows, sleeping as it says, for `ms` of simulated time; bytes written. */
function drive(b: TokenBucket, startNs: bigint, ms: number, want: number): number {
  let now = startNs;
  let sent = 0;
  const end = startNs + BigInt(ms) * MS;
  while (now < end) {
    const n = b.allow(now, want);
    if (n > 0) {
      b.spent(n);
      sent += n;
    } else {
      now += BigInt(b.waitMs(now, want)) * MS;
    }
  }
  return sent;
}

describe('TokenBucket', () => {
  it('holds 50 Mbit/s over a simulated second (±2 %), 128 KiB writes and 1 ms timers', () => {
    const b = new TokenBucket(50e6 / 8, 0n);
    const sent = drive(b, 0n, 1000, 128 * 1024);
    const ratio = (sent * 8) / 50e6;
    assert.ok(Math.abs(ratio - 1) <= 0.02, `ratio ${ratio}`);
  });

  it('after 5 s idle, lets out one burst (10 ms of the rate) and no more', () => {
    const b = new TokenBucket(1e6, 0n);
    assert.equal(b.burstBytes, 10_000);
    b.spent(b.allow(0n, 1e9));
    const later = 5000n * MS;
    assert.equal(b.allow(later, 1e9), 10_000, 'one burst, not 5 s of the rate');
    b.spent(10_000);
    assert.equal(b.allow(later, 1e9), 0);
    assert.ok(b.waitMs(later, 1e9) >= 5, 'half a burst at 1 MB/s is 5 ms away');
  });

  it('bounds the burst to 1,500 B at low rates and 4 MiB at high ones', () => {
    assert.equal(new TokenBucket(1000, 0n).burstBytes, 1500);
    assert.equal(new TokenBucket(1e12, 0n).burstBytes, 4 * 1024 * 1024);
  });
});
