/**
 * Bounded command execution for the WAN harness: every command has a time
 * limit, its output is captured, and a failure says which command failed and
 * what it printed. The harness runs only fixed tools (ip, tc, iptables,
 * ethtool, gcc, iperf3, ping, node) with argument arrays, never a shell.
 */
import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import { LonghaulError } from '../../electron/util/errors.js';

/** What a finished command printed. */
export interface CmdOutput {
  stdout: string;
  stderr: string;
}

/** Default limit for one setup command: they take milliseconds when healthy. */
const SETUP_TIMEOUT_MS = 10_000;

function describeCmd(cmd: string, args: readonly string[]): string {
  return [cmd, ...args].join(' ');
}

/**
 * Run `cmd args` and resolve with its output, or reject with LH_ERR_IO naming
 * the command, its exit status and its stderr. Killed after `timeoutMs`.
 */
export function runCmd(cmd: string, args: readonly string[], timeoutMs = SETUP_TIMEOUT_MS): Promise<CmdOutput> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) {
        resolve({ stdout, stderr });
        return;
      }
      const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
      const why = e.killed
        ? `did not finish within ${timeoutMs} ms`
        : e.code === 'ENOENT'
          ? 'is not installed (not found on PATH)'
          : `failed (exit ${String(e.code)})`;
      const detail = stderr.trim() || stdout.trim();
      reject(new LonghaulError('LH_ERR_IO', `${describeCmd(cmd, args)} ${why}${detail ? `: ${detail}` : ''}`, { cause: err }));
    });
  });
}

/**
 * Synchronous variant for teardown from `process.on('exit')`, where no promise
 * can run. Never throws: teardown must go on with the next step whatever fails.
 * Returns true when the command exited with status 0.
 */
export function runCmdSync(cmd: string, args: readonly string[], timeoutMs = SETUP_TIMEOUT_MS): boolean {
  const r = spawnSync(cmd, args, { timeout: timeoutMs, killSignal: 'SIGKILL', stdio: 'ignore' });
  return r.status === 0;
}

/** Same, returning stdout ('' on any failure). */
export function readCmdSync(cmd: string, args: readonly string[], timeoutMs = SETUP_TIMEOUT_MS): string {
  const r = spawnSync(cmd, args, { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' });
  return r.status === 0 ? r.stdout : '';
}

/**
 * Wait until a child's stdout matches `pattern`; resolves with the match.
 * Rejects (LH_ERR_IO, with what it printed) on timeout or when the child exits first.
 */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const out = child.stdout;
  if (!out) return Promise.reject(new Error('waitForOutput needs a child spawned with stdout: "pipe"'));
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => finish(`did not print ${String(pattern)} within ${timeoutMs} ms`), timeoutMs);
    function finish(why: string | null, match?: RegExpExecArray): void {
      clearTimeout(timer);
      out!.off('data', onData);
      child.off('exit', onExit);
      if (match) resolve(match);
      else reject(new LonghaulError('LH_ERR_IO', `process ${String(child.pid)} ${why ?? ''}${seen ? `; it printed: ${seen.trim()}` : ''}`));
    }
    function onData(chunk: Buffer | string): void {
      seen += chunk.toString();
      const m = pattern.exec(seen);
      if (m) finish(null, m);
    }
    function onExit(code: number | null, sig: NodeJS.Signals | null): void {
      finish(`exited (${sig ?? `exit ${String(code)}`}) before printing ${String(pattern)}`);
    }
    out.on('data', onData);
    child.once('exit', onExit);
  });
}
