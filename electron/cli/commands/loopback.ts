/**
 * `longhaul loopback`: responder and controller on this PC, in separate
 * processes, over 127.0.0.1. The one-command demo and smoke test.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { describeEmulatorWatch } from '../../contract/emulator-text.js';
import { describeLink, describeModelledLoss } from '../../proxy/describe-link.js';
import { ArgumentError } from '../../util/errors.js';
import { EXIT_RUN_FAILED } from '../exit-codes.js';
import { executeRun } from '../execute-run.js';
import { openRunReports } from '../run-reports.js';
import { addLinkOptions, linkSpecFromFlags, parseBypassTimes, wantsLink, type LinkFlags } from '../link-options.js';
import { ProxyProcess } from '../../engine/proxy-process.js';
import { loadCliTrust } from '../cli-trust.js';
import { pairWith } from '../../security/pair-client.js';
import { newPairingCode } from '../../security/pairing-code.js';
import { PeerStore } from '../../security/peer-store.js';
import { addRunOptions, runParamsFromFlags, type RunFlags } from '../run-options.js';

const BIN = fileURLToPath(new URL('../../../../bin/longhaul.js', import.meta.url));

/** Start `longhaul listen --once` on 127.0.0.1, port 0, in its own process; resolve with its port. */
export function spawnLoopbackResponder(extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(BIN, ['listen', '--port', '0', '--bind', '127.0.0.1', '--once', ...extraArgs], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [],
      env,
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

type LoopbackFlags = RunFlags & Omit<LinkFlags, 'window'> & { bypassAt?: string };

export function register(program: Command): void {
  const cmd = program
    .command('loopback')
    .description('responder and controller both on this PC (127.0.0.1), in separate processes: a first try and a smoke test; ' +
      'with --link (or link flags) the run goes through the link-emulator proxy, whose emulated window is --window');
  addLinkOptions(addRunOptions(cmd), { presetFlag: '--link', window: false })
    .option('--bypass-at <times>', 'switch the link bypass on, off, on… at these run times, e.g. 3s,6s');
  cmd.action(async (flags: LoopbackFlags) => {
    const params = runParamsFromFlags(flags);
    const { window: _runWindow, ...linkFlags } = flags;
    const link = wantsLink(linkFlags) ? linkSpecFromFlags(linkFlags, params.windowBytes) : null;
    const bypassAt = flags.bypassAt !== undefined ? parseBypassTimes(flags.bypassAt) : [];
    if (bypassAt.length && !link) throw new ArgumentError('--bypass-at needs a link (--link NAME or link flags such as --delay)', '--bypass-at');
    // Report files are created last among the checks: a bad flag must not leave empty files behind.
    const reports = openRunReports(flags, params, flags.json);
    if (!reports) return;
    // The local responder is a second installation (its own identity, kept beside ours so it is made
    // only once) that this process pairs with over the real pairing exchange, with a fresh code each
    // time; this side keeps that pairing in memory only.
    const mine = await loadCliTrust();
    const responderTrust = path.join(mine.dir, 'loopback-responder');
    const code = newPairingCode();
    const security = { ...mine, peers: PeerStore.memory() };
    let responder: { child: ChildProcess; port: number } | null = null;
    try {
      responder = await spawnLoopbackResponder(flags.workers ? ['--workers', String(flags.workers)] : [],
        { ...process.env, LONGHAUL_TRUST_DIR: responderTrust, LONGHAUL_PAIRING_CODE: code });
      await pairWith({ host: '127.0.0.1', port: responder.port, code, security });
    } catch (err) {
      responder?.child.kill('SIGKILL');
      process.stderr.write(`longhaul: ${(err as Error).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
      return;
    }
    let proxy: ProxyProcess | null = null;
    try {
      if (link) {
        proxy = await ProxyProcess.start(responder.port, link.spec, link.preset);
        for (const line of describeLink(link.spec, link.preset)) process.stdout.write(line + '\n');
      }
      const { code } = await executeRun({
        host: '127.0.0.1', port: proxy?.port ?? responder.port, params, jsonFile: flags.json, maxWorkersPerRole: flags.workers,
        reports, link: proxy?.hook(bypassAt), security,
      });
      for (const b of proxy?.bypassToggles ?? []) process.stdout.write(`bypass ${b.bypass ? 'on ' : 'off'} at ${b.t.toFixed(3)} s\n`);
      const loss = proxy?.modelledLoss;
      if (loss) process.stdout.write(describeModelledLoss(loss) + '\n');
      const watch = proxy?.emulatorWatch;
      if (watch) process.stdout.write(`emulator: ${describeEmulatorWatch(watch)}\n`);
      process.exitCode = code;
    } catch (err) {
      process.stderr.write(`longhaul: ${(err as Error).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
    } finally {
      await proxy?.stop();
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
