/** `longhaul run HOST[:PORT] [HOST2 …]`: be the controller of a run against one responder, or several at once. */
import { Option, type Command } from 'commander';
import { DEFAULT_PORT, IPERF3_DEFAULT_PORT } from '../../contract/api.js';
import { startIperf3Run, type Iperf3ClientRun } from '../../engine/iperf3/iperf3-client.js';
import { ArgumentError } from '../../util/errors.js';
import { loadCliTrust } from '../cli-trust.js';
import { checkGroupFiles, executeGroupRun } from '../execute-group.js';
import { executeRun } from '../execute-run.js';
import { openRunReports } from '../run-reports.js';
import { executeRamp } from '../execute-ramp.js';
import { rampOptions, rampRunFlags } from '../ramp-options.js';
import { Iperf3Target, PeerTarget } from '../../sweep/run-target.js';
import { checkWritable } from '../../report/report-file.js';
import { itemAt } from '../../contract/present.js';
import { addExamples, addHelpBlock } from '../help-layout.js';
import { addResultOptions, addRunOptions, groupRunHelp, intIn, parseTarget, runNotes, runParamsFromFlags, type RunFlags } from '../run-options.js';

export function register(program: Command): void {
  const cmd = program
    .command('run')
    .summary('run a test against one or more paired responders')
    .description('run a test against a paired responder: another PC running `longhaul listen`, paired once with `longhaul pair`')
    .argument('<host[:port]...>', `the responder(s), e.g. 192.168.1.20 or lab-pc:${DEFAULT_PORT}`)
    // First added, so "Common:" is the first heading (commander orders headings by their first option).
    .addOption(
      new Option('-p, --port <n>', `the responder's port when HOST has no :PORT (default ${DEFAULT_PORT}; --iperf3: ${IPERF3_DEFAULT_PORT})`).argParser(
        intIn(1, 65535, 'port'),
      ),
    )
    .option('--iperf3', 'the partner runs iperf3 -s (no pairing: an iperf3 server has none)');
  addResultOptions(addRunOptions(cmd));
  groupRunHelp(cmd, { common: ['--port'], run: ['--iperf3'] });
  addHelpBlock(
    cmd,
    'Notes:',
    runNotes([
      ['host1 host2', 'one run with all of them, started together: this PC sends to all (-R: all send to it; --bidir: both ways)'],
      ['-p', 'a HOST:PORT and -p must name the same port'],
    ]),
  );
  addExamples(cmd, [
    'longhaul run 192.168.1.20 -P 4 -t 30',
    'longhaul run lab-pc -p 6000 -R -J > result.json',
    'longhaul run --iperf3 192.168.1.20 -P 2 -t 10',
    'longhaul run 192.168.1.20 --udp-ramp --json ramp.json',
  ]);
  cmd.action(async (targets: string[], flags: RunFlags & { iperf3?: boolean }) => {
    const hosts = targets.map((t) => parseTarget(t, flags.port, flags.iperf3 ? IPERF3_DEFAULT_PORT : DEFAULT_PORT));
    if (flags.udpRamp !== undefined) {
      const f = rampRunFlags(flags, { hosts: hosts.length, rawChainLink: false });
      const params = runParamsFromFlags(f);
      const { host, port } = itemAt(hosts, 0, 'target');
      if (flags.json) checkWritable(flags.json, flags.force ?? false);
      const target = flags.iperf3 ? new Iperf3Target(host, port, flags.workers) : new PeerTarget(host, port, await loadCliTrust());
      process.exitCode = await executeRamp({ target, params, options: rampOptions(f), jsonFile: flags.json, jsonStdout: flags.jsonStdout });
      return;
    }
    const params = runParamsFromFlags(flags);
    const shown = { explain: flags.explain, jsonStdout: flags.jsonStdout };
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
      const { code } = await executeRun({ host, port, params, jsonFile: flags.json, maxWorkersPerRole: flags.workers, reports, start, ...shown });
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
        ...shown,
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
    // The group's summary is always the whole detail (each peer's full block), so --explain asks nothing more;
    // its document is longhaul.group/1, written whole at the end: --json FILE takes it, standard output does not.
    if (flags.jsonStdout) throw new ArgumentError('-J: prints one result; a run with several responders writes its document with --json FILE', '-J');
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
