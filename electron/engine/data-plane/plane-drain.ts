/**
 * Waiting for the sending workers' `drained` answers (data-plane.ts drained()):
 * one answer per worker asked, all true only if every one was acknowledged.
 */
/** What the wait needs of the plane: its 'drained' event. */
interface DrainedEvents {
  on(event: 'drained', listener: (ok: boolean) => void): unknown;
  off(event: 'drained', listener: (ok: boolean) => void): unknown;
}

/**
 * Ask `workers` senders (`ask`) and resolve once each answered: true if all said acknowledged,
 * false if one could not tell or `timeoutMs` (+ 500 ms for the answers to come back) passed.
 */
export function awaitDrained(plane: DrainedEvents, workers: number, timeoutMs: number, ask: () => void): Promise<boolean> {
  if (workers === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    let left = workers;
    let acked = true;
    const timer = setTimeout(() => finish(false), timeoutMs + 500);
    timer.unref?.();
    const finish = (ok: boolean): void => {
      clearTimeout(timer);
      plane.off('drained', onDrained);
      resolve(ok);
    };
    const onDrained = (ok: boolean): void => {
      acked &&= ok;
      if (--left === 0) finish(acked);
    };
    plane.on('drained', onDrained);
    ask();
  });
}
