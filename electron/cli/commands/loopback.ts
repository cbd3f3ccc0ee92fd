/**
 * `longhaul loopback`: responder and controller on this PC, in separate
 * processes, over 127.0.0.1. The one-command demo and smoke test.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { EXIT_RUN_FAILED } from '../exit-codes.js';
import { executeRun } from '../execute-run.js';
import { openRunReports } from '../run-reports.js';
import { addRunOptions, runParamsFromFlags, type RunFlags } from '../run-options.js';

const BIN = fileURLToPath(new URL('../../../../bin/longhaul.js', import.meta.url));

/** Start `longhaul listen --once` on 127.0.0.1, port 0, in its own process; resolve with its port. */
export function spawnLoopbackResponder(extraArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(BIN, ['listen', '--port', '0', '--bind', '127.0.0.1', '--once', ...extraArgs], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the local responder did not start within 10 s'));
    }, 10_000);
    child.once('message', (m: { type?: string; port?: number }) => {
      if (m.type === 'listening' && typeof m.port === 'number') {
        clearTimeout(timer);
        resolve({ child, port: m.port });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local responder exited early (code ${code})`));
    });
  });
}

export function register(program: Command): void {
  const cmd = program
    .command('loopback')
    .description('responder and controller both on this PC (127.0.0.1), in separate processes: a first try and a smoke test');
  addRunOptions(cmd).action(async (flags: RunFlags) => {
    const params = runParamsFromFlags(flags);
    const reports = openRunReports(flags, params, flags.json);
    if (!reports) return;
    let responder: { child: ChildProcess; port: number };
    try {
      responder = await spawnLoopbackResponder(flags.workers ? ['--workers', String(flags.workers)] : []);
    } catch (err) {
      process.stderr.write(`longhaul: ${(err as Error).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
      return;
    }
    try {
      const { code } = await executeRun({ host: '127.0.0.1', port: responder.port, params, jsonFile: flags.json, maxWorkersPerRole: flags.workers, reports });
      process.exitCode = code;
    } finally {
      responder.child.removeAllListeners('exit');
      // The responder exits by itself after its one run; make sure of it.
      const exited = new Promise((r) => responder.child.once('exit', r));
      if (responder.child.exitCode === null) {
        setTimeout(() => responder.child.kill('SIGKILL'), 3000).unref();
        await exited;
      }
    }
  });
}
