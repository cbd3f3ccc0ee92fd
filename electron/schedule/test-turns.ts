/**
 * One test at a time on this PC: every schedule run by one process (the app, `longhaul schedule run`)
 * takes its turn here before a test, first come first served, and waits while something else uses
 * the PC (`busyElsewhere`: the app's own run, sweep or ramp). A test that had to wait says what it
 * waited for, once (issue 39: "a test waits its turn; the wait is logged").
 *
 *   free ──take──► held ──release──► next in line (or free)
 *                   └─ the PC busy elsewhere: held but waiting, polled every POLL_MS
 */

/** How often a turn waiting for the PC looks again, ms (a test lasts seconds: this adds at most this much). */
const POLL_MS = 500;

export class TestTurns {
  private line: Promise<void> = Promise.resolve();
  private holder: string | null = null;

  /** `busyElsewhere`: what else is using this PC now (a sentence), or null when nothing is. */
  constructor(private readonly busyElsewhere: () => string | null = () => null) {}

  /** What holds the turn now (a label), or null. */
  get current(): string | null {
    return this.holder;
  }

  /**
   * Wait for the turn; `onWait` is told once what is ahead when it is not free. Resolves with the
   * release (call it once the test is over), or null when `stopping()` turned true while waiting.
   */
  async take(label: string, onWait: (ahead: string) => void, stopping: () => boolean): Promise<(() => void) | null> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const before = this.line;
    this.line = before.then(() => mine);
    let told = false;
    const tell = (ahead: string | null): void => {
      if (told || ahead === null) return;
      told = true;
      onWait(ahead);
    };
    if (this.holder !== null) tell(`a test of ${this.holder}`);
    await before;
    this.holder = label;
    for (;;) {
      if (stopping()) {
        this.holder = null;
        release();
        return null;
      }
      const other = this.busyElsewhere();
      if (other === null) break;
      tell(other);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holder = null;
      release();
    };
  }
}
