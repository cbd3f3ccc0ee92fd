/**
 * A timed run that does not end: senders stop themselves at the deadline, so this only catches a
 * peer that never sends its FIN. Past the deadline, bytes the kernels already hold may still be
 * draining over a slow link: it fires only once nothing has moved, on either side, for a while.
 */
export class RunWatchdog {
  private timer: NodeJS.Timeout | null = null;

  /**
   * `firstMs` after the start, then every `quietMs` while bytes still move (`moved`: the bytes so
   * far); `fire` when they did not. No deadline (`firstMs` null): never fires.
   */
  constructor(
    firstMs: number | null,
    private readonly quietMs: number,
    private readonly moved: () => number,
    private readonly fire: (quietSeconds: number) => void,
  ) {
    if (firstMs !== null) this.arm(firstMs, -1);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number, lastMoved: number): void {
    this.timer = setTimeout(() => {
      const moved = this.moved();
      if (moved !== lastMoved) return this.arm(this.quietMs, moved);
      this.timer = null;
      this.fire(Math.round(ms / 1000));
    }, ms);
    this.timer.unref?.();
  }
}
