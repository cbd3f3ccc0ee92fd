/**
 * `-V, --verbose, --explain`: the whole detail after a run instead of the
 * short answer. iperf3 calls it -V, --verbose; Longhaul's own name says what
 * it adds. Commander gives an option one long name, so `--explain` is the
 * option (`explain` in the flags) and `-V, --verbose` a hidden second one that
 * sets it; the help shows the one line under all three names.
 */
import { Help, Option, type Command } from 'commander';

const TERM = '-V, --verbose, --explain';

/** Add the option and its alias; their heading is the command's to choose (help-layout.ts). */
export function addExplainOption(cmd: Command): Command {
  const explain = new Option('--explain', 'the whole detail after the run (every figure, diagnosis, advice), not the short answer');
  cmd.addOption(explain).addOption(new Option('-V, --verbose').hideHelp());
  cmd.on('option:verbose', () => cmd.setOptionValueWithSource('explain', true, 'cli'));
  return cmd.configureHelp({
    ...cmd.configureHelp(),
    optionTerm(this: Help, option: Option): string {
      return option === explain ? TERM : Help.prototype.optionTerm.call(this, option);
    },
  });
}
