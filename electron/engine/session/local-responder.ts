/**
 * A responder on this PC for runs with both ends here (`longhaul loopback`,
 * loopback sweeps): `longhaul listen` on 127.0.0.1, port 0, in its own process
 * (the responder's data path must not share the controller's event loop),
 * paired with this installation over the real pairing exchange.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControllerSecurity } from '../../security/controller-security.js';
import type { LoadedTrust } from '../../security/load-trust.js';
import { pairWith } from '../../security/pair-client.js';
import { newPairingCode } from '../../security/pairing-code.js';
import { PeerStore } from '../../security/peer-store.js';
import { FORK_EXEC_ARGV } from '../../util/gc-schedule.js';

const BIN = fileURLToPath(new URL('../../../../bin/longhaul.js', import.meta.url));

/**
 * How long a loopback responder may take to announce its port. A new Node process loads the
 * engine and its identity in well under a second on a quiet PC, but the Windows build under
 * Wine took 7 s with both cores loaded, and 10 s failed there: a laptop busy with other work
 * is the same case. A responder that never starts still fails, just later.
 */
const LOCAL_RESPONDER_START_MS = 30_000;

/**
 * Start `longhaul listen` on 127.0.0.1, port 0 (`--once` unless `once` is false); resolve with its port.
 * `--no-record`: it serves this PC's own run, whose result the controller keeps; a second copy in History is not a run.
 */
export function spawnLoopbackResponder(
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
  once = true,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(BIN, ['listen', '--port', '0', '--bind', '127.0.0.1', '--no-record', ...(once ? ['--once'] : []), ...extraArgs], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [...FORK_EXEC_ARGV],
      env,
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the local responder did not start within ${LOCAL_RESPONDER_START_MS / 1000} s`));
    }, LOCAL_RESPONDER_START_MS);
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

export interface PairedLocalResponder {
  child: ChildProcess;
  port: number;
  /** This side's security for runs against it: our identity, the pairing kept in memory only. */
  security: ControllerSecurity;
}

/**
 * Start a local responder and pair with it. It is a second installation (its own
 * identity, kept in `<our trust folder>/loopback-responder` so it is made only
 * once), paired with a fresh code each time. On failure the child is killed.
 */
export async function startPairedLocalResponder(mine: LoadedTrust, o: { once?: boolean; workers?: number } = {}): Promise<PairedLocalResponder> {
  const code = newPairingCode();
  const security = { ...mine, peers: PeerStore.memory() };
  const env = { ...process.env, LONGHAUL_TRUST_DIR: path.join(mine.dir, 'loopback-responder'), LONGHAUL_PAIRING_CODE: code };
  const { child, port } = await spawnLoopbackResponder(o.workers ? ['--workers', String(o.workers)] : [], env, o.once ?? true);
  try {
    await pairWith({ host: '127.0.0.1', port, code, security });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return { child, port, security };
}

/** End a local responder: SIGTERM (it closes its sockets), SIGKILL after `ms`. Resolves when it is gone; safe on a dead child. */
export async function stopLocalResponder(child: ChildProcess, ms = 3000): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(kill);
}
