/**
 * Every sub-command of `longhaul`, under the heading and in the order `--help`
 * lists them. Each module exports `register(program)`; add a line here for a new one.
 *
 * Loaded on demand: a command's module pulls in the part of the engine it drives
 * (`run` ~200 modules, all of them ~350), and loading them is most of a start's CPU
 * (measured: `longhaul --version` 0.6–0.7 CPU s with every command, `run`'s own 0.4).
 * `longhaul run …` loads run's module only; help, a typo and the rest load them all.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;
interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<{ register: Register }>;
}

export const COMMAND_GROUPS: ReadonlyArray<{ heading: string; commands: readonly CommandEntry[] }> = [
  {
    heading: 'Test:',
    commands: [
      { name: 'run', load: () => import('./run.js') },
      { name: 'loopback', load: () => import('./loopback.js') },
      { name: 'sweep', load: () => import('./sweep.js') },
      { name: 'schedule', load: () => import('./schedule.js') },
    ],
  },
  {
    heading: 'Set up:',
    commands: [
      { name: 'listen', load: () => import('./listen.js') },
      { name: 'pair', load: () => import('./pair.js') },
      { name: 'peers', load: () => import('./peers.js') },
      { name: 'ui', load: () => import('./ui.js') },
    ],
  },
  {
    heading: 'Reports and tools:',
    commands: [
      { name: 'report', load: () => import('./report.js') },
      { name: 'history', load: () => import('./history.js') },
      { name: 'bdp', load: () => import('./bdp.js') },
      { name: 'doctor', load: () => import('./doctor.js') },
      { name: 'proxy', load: () => import('./proxy.js') },
    ],
  },
];

/**
 * The commands to register for this command line: only the named one when the first
 * argument names a command (the common case), else all of them (help, version, typos:
 * commander's "did you mean" needs every name).
 */
export async function commandsFor(argv: readonly string[]): Promise<Array<{ heading: string; registers: Register[] }>> {
  const first = argv[2];
  const only = COMMAND_GROUPS.flatMap((g) => g.commands).find((c) => c.name === first);
  const groups = COMMAND_GROUPS.map((g) => ({ heading: g.heading, commands: only ? g.commands.filter((c) => c === only) : g.commands }));
  return Promise.all(
    groups
      .filter((g) => g.commands.length > 0)
      .map(async (g) => ({ heading: g.heading, registers: (await Promise.all(g.commands.map((c) => c.load()))).map((m) => m.register) })),
  );
}
