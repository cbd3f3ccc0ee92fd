/** `longhaul pair HOST[:PORT] --code CODE`: pair this PC with a responder, once. */
import type { Command } from 'commander';
import { DEFAULT_PORT } from '../../contract/api.js';
import { shortFingerprint } from '../../security/identity.js';
import { loadCliTrust } from '../cli-trust.js';
import { pairWith } from '../../security/pair-client.js';
import { normalizeCode } from '../../security/pairing-code.js';
import { ArgumentError, describeError } from '../../util/errors.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { parseHostPort } from '../../util/net.js';
import { addExamples } from '../help-layout.js';

export function register(program: Command): void {
  const cmd = program
    .command('pair')
    .summary('pair with a responder, once, with the code `longhaul listen` prints')
    .description('pair with a responder using the one-time code `longhaul listen` prints there; later runs need no code')
    .argument('<host[:port]>', `the responder, e.g. 192.168.1.20 or lab-pc:${DEFAULT_PORT}`)
    .option('--code <code>', 'the pairing code shown by the responder (XXXX-XXXX-XXXX; or $LONGHAUL_PAIRING_CODE)');
  addExamples(cmd, ['longhaul pair 192.168.1.20 --code 7KQ2-M9XD-4TRB', 'LONGHAUL_PAIRING_CODE=7KQ2-M9XD-4TRB longhaul pair lab-pc:6000']);
  cmd.action(async (target: string, flags: { code?: string }) => {
    const { host, port } = parseHostPort(target, DEFAULT_PORT);
    const typed = flags.code ?? process.env.LONGHAUL_PAIRING_CODE;
    if (!typed) throw new ArgumentError('--code is required: the code `longhaul listen` prints on the responder', '--code');
    const code = normalizeCode(typed);
    const security = await loadCliTrust();
    try {
      const peer = await pairWith({ host, port, code, security });
      process.stdout.write(`Paired with ${peer.name} (${host}:${port}), fingerprint ${shortFingerprint(peer.fingerprint)}\n`);
      process.stdout.write(`This PC is ${security.identity.name}, fingerprint ${shortFingerprint(security.identity.fingerprint)}\n`);
      process.exitCode = EXIT_OK;
    } catch (err) {
      const e = describeError(err);
      process.stderr.write(`longhaul: pairing failed: ${e.code}: ${e.message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
    }
  });
}
