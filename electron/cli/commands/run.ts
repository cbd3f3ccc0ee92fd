/** `longhaul run HOST[:PORT]`: be the controller of a run against a responder. */
import type { Command } from 'commander';
import { DEFAULT_PORT } from '../../engine/responder.js';
import { loadCliTrust } from '../cli-trust.js';
import { executeRun } from '../execute-run.js';
import { openRunReports } from '../run-reports.js';
import { addRunOptions, parseHostPort, runParamsFromFlags, type RunFlags } from '../run-options.js';

export function register(program: Command): void {
  const cmd = program
    .command('run')
    .description('run a test against a paired responder (another PC running `longhaul listen`; pair once with `longhaul pair`)')
    .argument('<host[:port]>', `the responder, e.g. 192.168.1.20 or lab-pc:${DEFAULT_PORT}`);
  addRunOptions(cmd).action(async (target: string, flags: RunFlags) => {
    const { host, port } = parseHostPort(target, DEFAULT_PORT);
    const params = runParamsFromFlags(flags);
    const reports = openRunReports(flags, params, flags.json);
    if (!reports) return;
    const security = await loadCliTrust();
    const { code } = await executeRun({ host, port, params, jsonFile: flags.json, maxWorkersPerRole: flags.workers, reports, security });
    process.exitCode = code;
  });
}
