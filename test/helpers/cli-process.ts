/**
 * Run the real `longhaul` CLI in its own process group (so a test can kill it
 * and every worker it forked, by group id), bounded in time, cleaned up when
 * the test ends — also when it fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { childEnded } from './child-exit.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Exit code (null when killed by a signal), within `ms`. */
  exited(ms: number): Promise<number | null>;
  /** SIGKILL the whole process group (the CLI and everything it forked). */
  killGroup(): void;
}

/**
 * `env` is added to this process's environment (e.g. `LONGHAUL_TRUST_DIR` for a second installation).
 * `maxOpenFiles` runs it under `ulimit -n` in a child shell (the shell execs node: same process, same group).
 */
export function startCli(t: TestContext, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, maxOpenFiles?: number): CliProcess {
  const [command, argv] =
    maxOpenFiles === undefined
      ? [process.execPath, [BIN, ...args]]
      : ['bash', ['-c', `ulimit -n ${maxOpenFiles} && exec "$0" "$@"`, process.execPath, BIN, ...args]];
  const child = spawn(command, argv, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true', ...env },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const exit = childEnded(child).then(({ code }) => code);
  const killGroup = (): void => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  t.after(killGroup);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    killGroup,
    exited: (ms) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`longhaul ${args.join(' ')} did not exit within ${ms} ms\n${out}\n${err}`)), ms);
        void exit.then((code) => {
          clearTimeout(timer);
          resolve(code);
        });
      }),
  };
}

/** Poll `check` every 50 ms until it returns a value, or fail after `ms`. */
export async function waitFor<T>(what: string, ms: number, check: () => T | null | undefined | false): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
