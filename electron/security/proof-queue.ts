/**
 * Pairing proofs are checked one at a time (each costs an scrypt), in arrival
 * order, at most one waiting per source address. A request that arrives while
 * another is checked waits its turn instead of being refused: refusing it made
 * a stream of junk requests refuse the right code too. The queue is bounded;
 * past it, a request is told to try again (only a flood from more addresses
 * than `capacity` gets there, and its own entries drain in capacity × check time).
 */
export class ProofQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly waiting = new Set<string>();

  constructor(private readonly capacity = 64) {}

  /** Run `check` after the ones before it; 'busy' when `address` already waits or the queue is full. */
  async run<T>(address: string, check: () => Promise<T>): Promise<T | 'busy'> {
    if (this.waiting.has(address) || this.waiting.size >= this.capacity) return 'busy';
    this.waiting.add(address);
    const turn = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    try {
      await turn;
      return await check();
    } finally {
      this.waiting.delete(address);
      release();
    }
  }
}
