/**
 * `longhaul`: the headless door to the engine. Each sub-command lives in its
 * own file under commands/ and registers itself on the program.
 *
 * Exit codes: 0 ok; 1 the run failed or is partial; 2 bad arguments.
 */
import { Command, CommanderError } from 'commander';
import { ArgumentError } from '../util/errors.js';
import { applyGcSchedule } from '../util/gc-schedule.js';
import { startMemoryLog } from '../util/memory-log.js';
import { SOFTWARE_VERSION } from '../util/version.js';
import { COMMANDS } from './commands/index.js';
import { EXIT_BAD_ARGS } from './exit-codes.js';

function buildProgram(): Command {
  const program = new Command('longhaul')
    .description('TCP throughput test bench for two PCs: how fast TCP really goes on this link, and why not faster.')
    .version(SOFTWARE_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

/** Run the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  applyGcSchedule();
  const program = buildProgram();
  // LONGHAUL_MEMORY_LOG (soaks): one file per process, named after the command.
  startMemoryLog(argv.slice(2).find((a) => !a.startsWith('-')) ?? 'longhaul');
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are not errors; everything else commander rejects is a bad argument.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return EXIT_BAD_ARGS;
    }
    if (err instanceof ArgumentError) {
      process.stderr.write(`longhaul: ${err.message}\n`);
      return EXIT_BAD_ARGS;
    }
    throw err;
  }
}
