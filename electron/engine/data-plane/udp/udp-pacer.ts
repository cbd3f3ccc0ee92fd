/**
 * A UDP sender's schedule at `-b`: how many datagrams are due now so that the average since the
 * start is the asked rate, as iperf3 paces (its -b is an average over the test, not a cap per
 * burst). A sender held up (a busy core, a full socket queue) catches up, but by at most
 * the datagram then due and CATCH_UP_SECONDS of the rate at once: a debt older than that is written off and counted as
 * `shortBytes`, so the result can say the PC could not send at -b instead of a burst that would
 * only measure the sender's own queue.
 */

/** The most a late sender makes up in one go, seconds of the rate. */
export const CATCH_UP_SECONDS = 0.02;

export class UdpPacer {
  private dueBytes = 0;
  private lastNs: bigint;
  /** Bytes the schedule asked for that were written off (the sender was too late to send them). */
  shortBytes = 0;

  constructor(
    readonly bytesPerSec: number,
    readonly datagramBytes: number,
    startNs: bigint,
  ) {
    this.lastNs = startNs;
  }

  /** Datagrams to send now (call `sent` with what went out). */
  due(nowNs: bigint): number {
    if (nowNs > this.lastNs) {
      this.dueBytes += (this.bytesPerSec * Number(nowNs - this.lastNs)) / 1e9;
      this.lastNs = nowNs;
    }
    // The datagram due now plus CATCH_UP_SECONDS of lateness. (Their larger alone wrote off every timer's
    // lateness wherever one datagram is more than 20 ms of the rate: 64 kbit/s of 172-byte datagrams
    // sent 4.4 % short, and the answer blamed the CPU.)
    const cap = this.datagramBytes + this.bytesPerSec * CATCH_UP_SECONDS;
    if (this.dueBytes > cap) {
      this.shortBytes += this.dueBytes - cap;
      this.dueBytes = cap;
    }
    return Math.floor(this.dueBytes / this.datagramBytes);
  }

  /**
   * The schedule ends at `endNs` (the run's deadline): whole datagrams it asked for by then and not
   * sent are short too. (Without it a sender whose last turns came late ended up to 3 % below the asked
   * bytes with nothing said short.)
   */
  finish(endNs: bigint): void {
    this.due(endNs);
    const owed = Math.floor(this.dueBytes / this.datagramBytes) * this.datagramBytes;
    this.shortBytes += owed;
    this.dueBytes -= owed;
  }

  sent(datagrams: number): void {
    this.dueBytes -= datagrams * this.datagramBytes;
  }

  /** Milliseconds until the next datagram is due (at least 1: timers are in ms). */
  waitMs(): number {
    const need = this.datagramBytes - this.dueBytes;
    return Math.max(1, Math.ceil((need / this.bytesPerSec) * 1000));
  }
}
