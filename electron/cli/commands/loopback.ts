/**
 * `longhaul loopback`: responder and controller on this PC, in separate
 * processes, over 127.0.0.1. The one-command demo and smoke test.
 */
import { Option, type Command } from 'commander';
import { describeEmulatorWatch } from '../../contract/emulator-text.js';
import { describeLink, describeModelledLoss } from '../../proxy/describe-link.js';
import { ArgumentError } from '../../util/errors.js';
import { EXIT_RUN_FAILED } from '../exit-codes.js';
import { executeRun } from '../execute-run.js';
import { openRunReports } from '../run-reports.js';
import { addLinkOptions, HELP_LINK, linkSpecFromFlags, parseBypassTimes, wantsLink, type LinkFlags } from '../link-options.js';
import { executeRamp } from '../execute-ramp.js';
import { rampOptions, rampRunFlags } from '../ramp-options.js';
import { LoopbackTarget } from '../../sweep/run-target.js';
import { checkWritable } from '../../report/report-file.js';
import { addExamples, addHelpBlock } from '../help-layout.js';
import { ProxyProcess } from '../../engine/session/proxy-process.js';
import { loadCliTrust } from '../cli-trust.js';
import { startPairedLocalResponder, type PairedLocalResponder } from '../../engine/session/local-responder.js';
import { addResultOptions, addRunOptions, groupRunHelp, runNotes, runParamsFromFlags, type RunFlags } from '../run-options.js';

type LoopbackFlags = RunFlags & Omit<LinkFlags, 'window'> & { bypassAt?: string };

export function register(program: Command): void {
  const cmd = program
    .command('loopback')
    .summary('a run with both ends on this PC: a first try, or a link emulated')
    .description(
      'responder and controller both on this PC (127.0.0.1), in separate processes: a first try and a smoke test; ' +
        'with --link or link flags, through the link emulator',
    );
  addLinkOptions(addRunOptions(cmd), { presetFlag: '--link', window: false }).addOption(
    new Option('--bypass-at <times>', 'switch the link bypass on, off, on… at these run times, e.g. 3s,6s').helpGroup(HELP_LINK),
  );
  addResultOptions(cmd);
  groupRunHelp(cmd);
  addHelpBlock(cmd, 'Notes:', runNotes([['--link', "-w is also the link's emulated window (its cap on bytes in flight)"]]));
  addExamples(cmd, ['longhaul loopback -t 5', 'longhaul loopback --link satellite -w 64K -n 2M --json result.json', 'longhaul loopback --udp-ramp -t 1']);
  cmd.action(async (flags: LoopbackFlags) => {
    const { window: _runWindow, ...linkFlags } = flags;
    if (flags.udpRamp !== undefined) {
      const rampLink = wantsLink(linkFlags) ? linkSpecFromFlags(linkFlags, null) : null;
      const f = rampRunFlags(flags, { hosts: 1, rawChainLink: rampLink !== null && rampLink.spec.settings === null });
      if (flags.json) checkWritable(flags.json, flags.force ?? false);
      const target = new LoopbackTarget(await loadCliTrust(), flags.workers);
      const settings = rampLink?.spec.settings ?? null;
      // The link's one line, as a run through it says (the compact default; the steps follow).
      if (rampLink) (flags.jsonStdout ? process.stderr : process.stdout).write(describeLink(rampLink.spec, rampLink.preset, 'udp')[0] + '\n');
      process.exitCode = await executeRamp({
        target,
        params: runParamsFromFlags(f),
        options: { ...rampOptions(f), ...(settings ? { link: { preset: rampLink?.preset ?? null, settings } } : {}) },
        jsonFile: flags.json,
        jsonStdout: flags.jsonStdout,
      });
      return;
    }
    const params = runParamsFromFlags(flags);
    const link = wantsLink(linkFlags) ? linkSpecFromFlags(linkFlags, params.windowBytes) : null;
    const bypassAt = flags.bypassAt !== undefined ? parseBypassTimes(flags.bypassAt) : [];
    if (bypassAt.length && !link) throw new ArgumentError('--bypass-at needs a link (--link NAME or link flags such as --delay)', '--bypass-at');
    // Report files are created last among the checks: a bad flag must not leave empty files behind.
    const reports = openRunReports(flags, params, flags.json);
    if (!reports) return;
    const mine = await loadCliTrust();
    let responder: PairedLocalResponder;
    try {
      // --capacity runs a second, tuned run against the same responder: it must not exit after the first.
      responder = await startPairedLocalResponder(mine, { workers: flags.workers, once: !flags.capacity });
    } catch (err) {
      process.stderr.write(`longhaul: ${(err as Error).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
      return;
    }
    const { security } = responder;
    // -J: standard output carries the JSON document alone (as in execute-run.ts); the link's lines go to standard error.
    const say = flags.jsonStdout ? process.stderr : process.stdout;
    let proxy: ProxyProcess | null = null;
    try {
      if (link) {
        proxy = await ProxyProcess.start(responder.port, link.spec, link.preset);
        // The compact default names the link in one line; --explain gives each direction's stages.
        const lines = describeLink(link.spec, link.preset, params.protocol === 'udp' ? 'udp' : 'tcp');
        for (const line of flags.explain ? lines : lines.slice(0, 1)) say.write(line + '\n');
      }
      const { code } = await executeRun({
        host: '127.0.0.1',
        port: proxy?.port ?? responder.port,
        params,
        jsonFile: flags.json,
        maxWorkersPerRole: flags.workers,
        reports,
        link: proxy?.hook(bypassAt),
        security,
        pathRateBitsPerSec: flags.pathRate ?? null,
        capacity: flags.capacity,
        explain: flags.explain,
        jsonStdout: flags.jsonStdout,
      });
      // The emulator's own account (bypass toggles, modelled losses, its lag) is detail: the answer already used it.
      if (flags.explain) {
        for (const b of proxy?.bypassToggles ?? []) say.write(`bypass ${b.bypass ? 'on ' : 'off'} at ${b.t.toFixed(3)} s\n`);
        const loss = proxy?.modelledLoss;
        if (loss) say.write(describeModelledLoss(loss) + '\n');
        const watch = proxy?.emulatorWatch;
        if (watch) say.write(`emulator: ${describeEmulatorWatch(watch)}\n`);
      }
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
        if (flags.capacity) responder.child.kill('SIGTERM'); // it served two runs and was told to stay
        setTimeout(() => responder.child.kill('SIGKILL'), 3000).unref();
        await exited;
      }
    }
  });
}
