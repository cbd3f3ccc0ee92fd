/**
 * The signals that ask a `longhaul` command to stop cleanly (a run keeps its
 * partial result, `listen` and `ui` close their sockets):
 *
 * | signal | sent when |
 * | --- | --- |
 * | SIGINT | Ctrl-C in a terminal or a Windows console |
 * | SIGBREAK | Ctrl-Break in a Windows console (never sent elsewhere) |
 * | SIGHUP | the terminal went away; on Windows, the console window was closed (Windows ends the process about 5 s later, handler or not) |
 * | SIGTERM | `kill`, service managers, CI time limits (POSIX only: on Windows `process.kill(pid, sig)` ends a process at once, no handler runs) |
 *
 * The first one calls the handler and removes every listener, so a second
 * Ctrl-C does what Ctrl-C does without a handler: quit at once.
 *
 * A terminal's Ctrl-C goes to every process of the foreground group, and a
 * Windows console's to every process attached to it: also to the helpers a
 * command forks with an IPC channel (`loopback`'s responder, the link proxy).
 * Those follow their parent instead (its `close` message or its exit): for
 * them the console's signals are swallowed and only SIGTERM and the end of
 * the IPC channel stop them, so the parent can finish its run through them.
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGBREAK', 'SIGHUP', 'SIGTERM'] as const;
/** What a console sends to every process attached to it. */
const CONSOLE_SIGNALS = ['SIGINT', 'SIGBREAK', 'SIGHUP'] as const;

type StopSignal = (typeof STOP_SIGNALS)[number];

/** The part of `process` this module uses (tests pass an EventEmitter). */
interface SignalSource {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** Call `handler` on the first stop signal. Returns a function that removes the listeners (idempotent). */
export function onStopSignal(handler: (signal: StopSignal) => void, proc: SignalSource = process): () => void {
  const listeners = STOP_SIGNALS.map(
    (signal) =>
      [
        signal,
        () => {
          dispose();
          handler(signal);
        },
      ] as const,
  );
  let active = true;
  function dispose(): void {
    if (!active) return;
    active = false;
    for (const [signal, fn] of listeners) proc.off(signal, fn);
  }
  for (const [signal, fn] of listeners) proc.on(signal, fn);
  return dispose;
}

/**
 * For a helper forked by another `longhaul` process: stop on SIGTERM or when
 * the parent goes (IPC channel closed); ignore the console's signals, which
 * the parent handles. Returns a function that removes the listeners.
 */
export function followParent(handler: (why: 'SIGTERM' | 'disconnect') => void, proc: SignalSource = process): () => void {
  const ignore = (): void => {};
  const onTerm = (): void => {
    dispose();
    handler('SIGTERM');
  };
  const onGone = (): void => {
    dispose();
    handler('disconnect');
  };
  let active = true;
  function dispose(): void {
    if (!active) return;
    active = false;
    for (const s of CONSOLE_SIGNALS) proc.off(s, ignore);
    proc.off('SIGTERM', onTerm);
    proc.off('disconnect', onGone);
  }
  for (const s of CONSOLE_SIGNALS) proc.on(s, ignore);
  proc.on('SIGTERM', onTerm);
  proc.on('disconnect', onGone);
  return dispose;
}

/** `followParent` when this process was forked with an IPC channel, else `onStopSignal`. */
export function onStop(handler: () => void, proc: SignalSource & { connected?: boolean } = process): () => void {
  return proc.connected ? followParent(handler, proc) : onStopSignal(handler, proc);
}
