/**
 * Longhaul's own pacing on Node's byte loop (`--bitrate` where the kernel cannot pace): the
 * same token bucket as the native loop's (native/src/lh_pacer.h), in bytes. Tokens fill at
 * the rate and are capped at one burst (10 ms of the rate, 1,500 B to 4 MiB), so a stream
 * that fell behind (a full socket, a busy event loop) catches up by one burst at most.
 */

const BURST_SECONDS = 0.01;
const MIN_BURST_BYTES = 1500;
const MAX_BURST_BYTES = 4 * 1024 * 1024;

export class TokenBucket {
  readonly burstBytes: number;
  private tokens: number;
  private lastNs: bigint;

  /** `bytesPerSec` > 0; `nowNs` on the worker's clock. */
  constructor(
    readonly bytesPerSec: number,
    nowNs: bigint,
  ) {
    this.burstBytes = Math.min(MAX_BURST_BYTES, Math.max(MIN_BURST_BYTES, bytesPerSec * BURST_SECONDS));
    this.tokens = this.burstBytes;
    this.lastNs = nowNs;
  }

  /**
   * Bytes that may be written now, at most `want`; 0: wait `waitMs(…)`. Waits for half a burst (or
   * all of `want`) so writes stay large and a late timer loses no tokens to the cap.
   */
  allow(nowNs: bigint, want: number): number {
    this.refill(nowNs);
    if (this.tokens < this.need(want)) return 0;
    return Math.floor(Math.min(want, this.tokens));
  }

  spent(bytes: number): void {
    this.tokens -= bytes;
  }

  /** Milliseconds until `allow(…, want)` is above 0 (at least 1: timers are in ms). */
  waitMs(nowNs: bigint, want: number): number {
    this.refill(nowNs);
    const need = this.need(want) - this.tokens;
    return Math.max(1, Math.ceil((need / this.bytesPerSec) * 1000));
  }

  private need(want: number): number {
    return Math.min(want, this.burstBytes / 2);
  }

  private refill(nowNs: bigint): void {
    if (nowNs > this.lastNs) this.tokens = Math.min(this.burstBytes, this.tokens + (this.bytesPerSec * Number(nowNs - this.lastNs)) / 1e9);
    this.lastNs = nowNs;
  }
}
