/** `longhaul run HOST[:PORT] [HOST2 …]`: be the controller of a run against one responder, or several at once. */
import type { Command } from 'commander';
import { DEFAULT_PORT } from '../../contract/api.js';
import { startIperf3Run, type Iperf3ClientRun } from '../../engine/iperf3/iperf3-client.js';
import { IPERF3_DEFAULT_PORT } from '../../protocol/iperf3/states.js';
import { ArgumentError } from '../../util/errors.js';
import { loadCliTrust } from '../cli-trust.js';
import { checkGroupFiles, executeGroupRun } from '../execute-group.js';
import { executeRun } from '../execute-run.js';
import { openRunReports } from '../run-reports.js';
import { addRunOptions, parseHostPort, runParamsFromFlags, type RunFlags } from '../run-options.js';

export function register(program: Command): void {
  const cmd = program
    .command('run')
    .description(
      'run a test against a paired responder (another PC running `longhaul listen`; pair once with `longhaul pair`); ' +
        'several responders: one run with all of them, started together (this PC sends to all; -R: all send to this PC; --bidir: both)',
    )
    .argument('<host[:port]...>', `the responder(s), e.g. 192.168.1.20 or lab-pc:${DEFAULT_PORT}`);
  cmd.option('--iperf3', `the partner runs iperf3 -s (no pairing: an iperf3 server has none); port ${IPERF3_DEFAULT_PORT} unless given`);
  addRunOptions(cmd).action(async (targets: string[], flags: RunFlags & { iperf3?: boolean }) => {
    const hosts = targets.map((t) => parseHostPort(t, flags.iperf3 ? IPERF3_DEFAULT_PORT : DEFAULT_PORT));
    const params = runParamsFromFlags(flags);
    const [only] = hosts.length === 1 ? hosts : [];
    if (flags.iperf3) {
      if (!only) throw new ArgumentError('--iperf3 runs against one iperf3 server at a time', 'HOST');
      if (flags.capacity)
        throw new ArgumentError("--capacity: the path's measurement is Longhaul's own tuned run, which an iperf3 server cannot take part in", '--capacity');
      const { host, port } = only;
      const reports = openRunReports(flags, params, flags.json);
      if (!reports) return;
      const start = (signal: AbortSignal): Iperf3ClientRun =>
        startIperf3Run({ host, port, params, signal, maxWorkersPerRole: flags.workers, pathRateBitsPerSec: flags.pathRate ?? null });
      const { code } = await executeRun({ host, port, params, jsonFile: flags.json, maxWorkersPerRole: flags.workers, reports, start });
      process.exitCode = code;
      return;
    }
    if (only) {
      const { host, port } = only;
      const reports = openRunReports(flags, params, flags.json);
      if (!reports) return;
      const security = await loadCliTrust();
      const { code } = await executeRun({
        host,
        port,
        params,
        jsonFile: flags.json,
        maxWorkersPerRole: flags.workers,
        reports,
        security,
        pathRateBitsPerSec: flags.pathRate ?? null,
        capacity: flags.capacity,
      });
      process.exitCode = code;
      return;
    }
    const seen = new Set<string>();
    for (const h of hosts) {
      const key = `${h.host.toLowerCase()}:${h.port}`;
      if (seen.has(key)) throw new ArgumentError(`${h.host}:${h.port} is named twice: each responder takes one run at a time`, 'HOST');
      seen.add(key);
    }
    if (flags.capacity) throw new ArgumentError('--capacity: measures one path, so it goes with one responder; run it against each on its own', '--capacity');
    if (flags.pathRate !== undefined) {
      // One rate cannot stand for several paths, and the peers share this PC's link: each run's verdict would misread it.
      throw new ArgumentError("--path-rate: states one path's rate, so it goes with one responder; a run with several has a path to each", '--path-rate');
    }
    if (!checkGroupFiles({ jsonFile: flags.json, flags })) return;
    const security = await loadCliTrust();
    const { code } = await executeGroupRun({
      peers: hosts.map((h) => ({ ...h, security })),
      params,
      jsonFile: flags.json,
      flags,
      maxWorkersPerRole: flags.workers,
    });
    process.exitCode = code;
  });
}
