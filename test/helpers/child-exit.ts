/**
 * When a child's output is complete. 'exit' can fire before the last of its stdout and stderr has
 * been read (a CI run read iperf3's -J output as empty that way); 'close' fires after both pipes
 * end. A grandchild that inherited the pipes can hold them open past the child's exit, so after
 * 'exit' the wait for 'close' is bounded.
 */
import type { ChildProcess } from 'node:child_process';

interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves once the child exited and its pipes closed (or `graceMs` after the exit, whichever is first). */
export function childEnded(child: ChildProcess, graceMs = 2000): Promise<ChildEnd> {
  return new Promise((resolve) => {
    let end: ChildEnd | null = child.exitCode !== null || child.signalCode !== null ? { code: child.exitCode, signal: child.signalCode } : null;
    let grace: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearTimeout(grace);
      resolve(end!);
    };
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      end ??= { code, signal };
      done();
    });
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      end = { code, signal };
      grace = setTimeout(done, graceMs);
    };
    if (end) onExit(end.code, end.signal);
    else child.once('exit', onExit);
  });
}
