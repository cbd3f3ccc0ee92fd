/** Test helpers: `longhaul` child processes that announce their port over IPC, always cleaned up. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Fork `longhaul ARGS`; resolve with the child and its first IPC message of `type`. */
export function forkLonghaul<M extends { type: string }>(
  args: string[],
  type: M['type'],
  env: NodeJS.ProcessEnv = {},
  ms = 15_000,
): Promise<{ child: ChildProcess; msg: M }> {
  return new Promise((resolve, reject) => {
    const child = fork(BIN, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, ...env }, execArgv: [] });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout?.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`longhaul ${args.join(' ')} did not announce "${type}" within ${ms} ms; stderr: ${stderr}`));
    }, ms);
    child.on('message', (m: M) => {
      if (m?.type !== type) return;
      clearTimeout(timer);
      resolve({ child, msg: m });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`longhaul ${args.join(' ')} exited early (code ${code}); stderr: ${stderr}`));
    });
  });
}

/** SIGTERM, then SIGKILL after `ms`; resolves when the child is gone. Safe on dead children. */
export async function stopChild(child: ChildProcess | undefined, ms = 5000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), ms);
  await gone;
  clearTimeout(killer);
}
