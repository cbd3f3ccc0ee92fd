/** Run the real `longhaul` CLI (bin/longhaul.js) as a child process, bounded in time. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnded } from './child-exit.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawn `longhaul ...args`; the returned promise settles on exit (killed after `timeoutMs`). */
export function cli(args: string[], timeoutMs = 30_000, env: Record<string, string> = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    void childEnded(child).then(({ code, signal }) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

/** Resolve when `text` shows up in the child's stdout (or reject after `ms`). */
export function waitForOutput(child: ChildProcess, pattern: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in output within ${ms} ms; got: ${seen}`)), ms);
    const onData = (d: Buffer): void => {
      seen += d.toString();
      const m = seen.match(pattern);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(m);
      }
    };
    child.stdout!.on('data', onData);
  });
}
