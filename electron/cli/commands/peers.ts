/** `longhaul peers [--forget NAME] [--json]`: the PCs this one is paired with. */
import type { Command } from 'commander';
import { shortFingerprint } from '../../security/identity.js';
import { loadCliTrust } from '../cli-trust.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { addExamples } from '../help-layout.js';

export function register(program: Command): void {
  const cmd = program
    .command('peers')
    .description('list the paired PCs (name, fingerprint, last address, last seen), or forget one')
    .option('--forget <name>', 'forget this peer (its name, or the start of its fingerprint): it must pair again')
    .option('--json', 'print the list as JSON');
  addExamples(cmd, ['longhaul peers', 'longhaul peers --forget lab-pc']);
  cmd.action(async (flags: { forget?: string; json?: boolean }) => {
    const { identity, peers, dir } = await loadCliTrust();
    if (flags.forget !== undefined) {
      const gone = peers.forget(flags.forget);
      if (!gone) {
        process.stderr.write(`longhaul: no single peer named "${flags.forget}" (see: longhaul peers)\n`);
        process.exitCode = EXIT_RUN_FAILED;
        return;
      }
      process.stdout.write(`Forgot ${gone.name} (fingerprint ${shortFingerprint(gone.fingerprint)})\n`);
      process.exitCode = EXIT_OK;
      return;
    }
    const list = peers.list();
    if (flags.json) {
      process.stdout.write(JSON.stringify({ self: { name: identity.name, fingerprint: identity.fingerprint }, peers: list }, null, 2) + '\n');
      return;
    }
    process.stdout.write(`This PC: ${identity.name}, fingerprint ${shortFingerprint(identity.fingerprint)} (${dir})\n`);
    if (!list.length) {
      process.stdout.write('No paired peers. Pair with: longhaul pair HOST[:PORT] --code CODE\n');
      return;
    }
    for (const p of list) {
      process.stdout.write(`${p.name.padEnd(24)} ${shortFingerprint(p.fingerprint)}  ${(p.address ?? 'unknown').padEnd(16)} last seen ${p.lastSeen}\n`);
    }
  });
}
