/** `longhaul listen`: be a responder, waiting for a controller. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import os from 'node:os';
import { DEFAULT_PORT, Responder } from '../../engine/responder.js';
import { describeError } from '../../util/errors.js';
import { formatRate, groupDigits } from '../../util/units.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';

interface ListenFlags {
  port: number;
  bind?: string;
  once?: boolean;
  workers?: number;
}

function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError(`"${v}" is not a port number (0-65535)`);
  return Number(v);
}

/** This PC's addresses, so a user can read them off to the other laptop. */
export function localAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal) out.push(a.address);
  }
  return out;
}

export function register(program: Command): void {
  program
    .command('listen')
    .description('wait for a partner: be the responder of runs started from another PC')
    .option('-p, --port <port>', `TCP port for control and data (0 = any free port)`, port, DEFAULT_PORT)
    .option('-B, --bind <addr>', 'listen on this address only (default: all)')
    .option('-1, --once', 'serve one run, then exit (exit code 1 if it failed)')
    .addOption(new Option('--workers <n>', 'data worker processes per role').argParser(port).hideHelp())
    .action(async (flags: ListenFlags) => {
      const responder = new Responder({ port: flags.port, host: flags.bind, maxWorkersPerRole: flags.workers });
      let addr;
      try {
        addr = await responder.listen();
      } catch (err) {
        process.stderr.write(`longhaul: cannot listen on port ${flags.port}: ${describeError(err).message}\n`);
        process.exitCode = EXIT_RUN_FAILED;
        return;
      }
      process.stdout.write(`Longhaul responder on ${os.hostname()}, listening on ${addr.address}:${addr.port}\n`);
      const addrs = localAddresses();
      const portSuffix = addr.port === DEFAULT_PORT ? '' : `:${addr.port}`;
      if (/^(127\.|::1$)/.test(addr.address)) {
        process.stdout.write(`Bound to a loopback address: only this PC can connect (longhaul run ${addr.address.includes(':') ? `[${addr.address}]` : addr.address}${portSuffix})\n`);
      } else {
        if (addrs.length) process.stdout.write(`This PC's addresses: ${addrs.join(', ')}\n`);
        process.stdout.write(`On the other PC run: longhaul run <one of these addresses>${portSuffix}\n`);
      }
      process.send?.({ type: 'listening', port: addr.port, address: addr.address });

      responder.on('rejected', (peer, why) => process.stdout.write(`turned away ${peer}: ${why}\n`));
      responder.on('session', (s) => {
        process.stdout.write(`controller connected from ${s.channel.remoteAddress}\n`);
      });
      await new Promise<void>((resolve) => {
        const stop = (): void => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        responder.on('session-end', (result, err) => {
          if (result) {
            const t = result.total;
            process.stdout.write(
              `run ${result.id} ${result.partial ? 'ended early' : 'complete'}: ${groupDigits(t.bytes)} bytes received, ${formatRate(t.bitsPerSecond)} wall-clock aggregate\n`,
            );
          }
          if (err) process.stdout.write(`session ended: ${err.code}: ${err.message}\n`);
          if (flags.once) {
            process.exitCode = err || result?.partial || !result ? EXIT_RUN_FAILED : EXIT_OK;
            resolve();
          }
        });
      });
      await responder.close();
    });
}
