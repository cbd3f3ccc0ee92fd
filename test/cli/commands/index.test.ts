/**
 * The CLI loads only the command it runs: `longhaul run …` registers run alone (its
 * ~200 modules, not all ~350), while help, version and typos see every command under
 * its heading, in --help's order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { COMMAND_GROUPS, commandsFor } from '../../../electron/cli/commands/index.js';

/** The command names a set of groups registers, by heading. */
function registered(groups: Awaited<ReturnType<typeof commandsFor>>): Array<[string, string[]]> {
  return groups.map((g) => {
    const program = new Command('longhaul');
    for (const r of g.registers) r(program);
    return [g.heading, program.commands.map((c) => c.name())];
  });
}

describe('commandsFor', () => {
  it('a named command: that command alone, under its heading', async () => {
    assert.deepEqual(registered(await commandsFor(['node', 'longhaul', 'run', '127.0.0.1'])), [['Test:', ['run']]]);
    assert.deepEqual(registered(await commandsFor(['node', 'longhaul', 'bdp', '--rate', '1G'])), [['Reports and tools:', ['bdp']]]);
  });

  it('no command, an option first, or a typo: every command, in the help order', async () => {
    const all = COMMAND_GROUPS.map((g): [string, string[]] => [g.heading, g.commands.map((c) => c.name)]);
    for (const argv of [
      ['node', 'longhaul'],
      ['node', 'longhaul', '--version'],
      ['node', 'longhaul', 'rnu'],
      ['node', 'longhaul', 'help', 'run'],
    ]) {
      assert.deepEqual(registered(await commandsFor(argv)), all, argv.join(' '));
    }
  });

  it("each entry's name is the name its module registers", async () => {
    for (const c of COMMAND_GROUPS.flatMap((g) => g.commands)) {
      const program = new Command('longhaul');
      (await c.load()).register(program);
      assert.deepEqual(
        program.commands.map((x) => x.name()),
        [c.name],
      );
    }
  });
});
