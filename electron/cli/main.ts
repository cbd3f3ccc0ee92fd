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
import { commandsFor } from './commands/index.js';
import { addExamples } from './help-layout.js';
import { EXIT_BAD_ARGS } from './exit-codes.js';

function buildProgram(groups: Awaited<ReturnType<typeof commandsFor>>): Command {
  const program = new Command('longhaul')
    .description('TCP throughput test bench for two PCs: how fast TCP really goes on this link, and why not faster.')
    // -v for the version, as iperf3's: -V is --verbose (run, loopback), as iperf3's too.
    .version(SOFTWARE_VERSION, '-v, --version', 'print the version and exit')
    .showHelpAfterError('(run with --help for usage)')
    // A command's flags are its own (`schedule add NAME --every …` is add's --every, not schedule's).
    .enablePositionalOptions()
    .exitOverride();
  for (const group of groups) {
    program.commandsGroup(group.heading);
    for (const register of group.registers) register(program);
  }
  // Made now, `help [command]` takes the last heading rather than one of its own.
  program.helpCommand(true);
  return addExamples(program, ['longhaul loopback -t 5', 'longhaul run 192.168.1.20 -P 4 -t 30', 'longhaul run --help']);
}

/** Run the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  applyGcSchedule();
  // `longhaul --help | head`: a reader that stops early ends the output, not with a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  const program = buildProgram(await commandsFor(argv));
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
