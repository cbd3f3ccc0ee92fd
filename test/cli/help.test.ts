/**
 * `longhaul --help` as iperf3's reads (issue 36): options under headings, lines that fit a
 * terminal, examples after the options; iperf3's letters where they overlap (-v version,
 * -V verbose, -p port, -J JSON on standard output), each refused with exit 2 naming it.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cli } from '../helpers/cli.js';
import { childEnded } from '../helpers/child-exit.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

const COMMANDS = ['run', 'loopback', 'sweep', 'schedule', 'listen', 'pair', 'peers', 'ui', 'report', 'history', 'bdp', 'doctor', 'proxy'];

/** The headings of a help text, in order: lines at column 0 that end in ":". */
function headings(help: string): string[] {
  return help.split('\n').filter((l) => /^\S.*:$/.test(l));
}

/** The lines under one heading, up to the blank line that ends it. */
function section(help: string, heading: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf(heading);
  assert.ok(start >= 0, `no "${heading}" in:\n${help}`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The commands listed under a heading: the first word of each item (its wrapped lines are indented further). */
function commandsUnder(help: string, heading: string): string[] {
  return section(help, heading)
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(' ')[0] ?? '');
}

describe('longhaul --help', { timeout: 120_000 }, () => {
  const help = new Map<string, string>();

  before(async () => {
    // One after another: the machine's cores are shared with the other tests.
    for (const name of ['', ...COMMANDS]) {
      const r = await cli(name ? [name, '--help'] : ['--help'], 30_000).done;
      assert.equal(r.code, 0, `${name} --help: ${r.stderr}`);
      help.set(name, r.stdout);
    }
  });

  it('groups the commands: Test, Set up, Reports and tools', () => {
    const top = help.get('') ?? '';
    assert.deepEqual(headings(top).slice(0, 4), ['Options:', 'Test:', 'Set up:', 'Reports and tools:']);
    assert.deepEqual(commandsUnder(top, 'Test:'), ['run', 'loopback', 'sweep', 'schedule']);
    assert.deepEqual(commandsUnder(top, 'Set up:'), ['listen', 'pair', 'peers', 'ui']);
    assert.deepEqual(commandsUnder(top, 'Reports and tools:'), ['report', 'history', 'bdp', 'doctor', 'proxy', 'help']);
    assert.match(top, /^ {2}-v, --version /m);
  });

  it('run --help: Common, Run (client), Reports; every option under one of them', () => {
    const run = help.get('run') ?? '';
    assert.deepEqual(headings(run), ['Arguments:', 'Common:', 'Run (client):', 'Reports:', 'Notes:', 'Examples:']);
    const common = section(run, 'Common:').join('\n');
    for (const flag of ['-p, --port <n>', '-V, --verbose, --explain', '-i, --interval', '-h, --help'])
      assert.ok(common.includes(flag), `${flag} in Common:\n${common}`);
    const reports = section(run, 'Reports:').join('\n');
    for (const flag of ['--json <file>', '-J, --json-stdout', '--log', '--csv', '--distance-km', '--force'])
      assert.ok(reports.includes(flag), `${flag} in Reports`);
    assert.ok(section(run, 'Run (client):').join('\n').includes('--iperf3'));
  });

  it('loopback --help: Common, Run (client), Link emulator, Reports', () => {
    const loopback = help.get('loopback') ?? '';
    assert.deepEqual(headings(loopback).slice(0, 4), ['Common:', 'Run (client):', 'Link emulator:', 'Reports:']);
    const link = section(loopback, 'Link emulator:').join('\n');
    for (const flag of ['--link <name>', '--delay', '--loss <ratio>', '--bypass-at']) assert.ok(link.includes(flag), `${flag} in Link emulator`);
    assert.ok(section(loopback, 'Common:').join('\n').includes('-V, --verbose, --explain'));
    assert.ok(section(loopback, 'Reports:').join('\n').includes('-J, --json-stdout'));
  });

  it('listen --help: its options under Listen (server)', () => {
    const listen = help.get('listen') ?? '';
    assert.ok(headings(listen).includes('Listen (server):'));
    assert.ok(!headings(listen).includes('Options:'), 'no option left outside the heading');
  });

  it('no help line is longer than 100 characters', () => {
    for (const [name, text] of help) {
      for (const line of text.split('\n')) assert.ok(line.length <= 100, `longhaul ${name} --help: ${line.length} characters: ${line}`);
    }
  });

  it('every command shows examples after its options, with flags it has', () => {
    for (const name of COMMANDS) {
      const text = help.get(name) ?? '';
      assert.equal(headings(text).at(-1), 'Examples:', `${name}: Examples last`);
      const examples = section(text, 'Examples:');
      // The option lists alone: the notes after them name flags too.
      const options = text.split(/\n(?=Notes:|Stages |Examples:)/)[0] ?? '';
      assert.ok(examples.length >= 2, `${name}: two examples at least`);
      for (const example of examples) {
        assert.match(example, new RegExp(`^ {2}(\\w+=\\S+ )?longhaul ${name}( |$)`), `${name}: ${example}`);
        // A flag the command does not have would make the example a lie.
        for (const flag of example.match(/(?<= )--?[A-Za-z][\w-]*/g) ?? []) {
          assert.ok(new RegExp(`(^|[ ,])${flag}[ ,]`, 'm').test(options), `${name}: ${flag} of "${example.trim()}" is listed`);
        }
      }
    }
  });

  it('-v and --version print the version', async () => {
    for (const flag of ['-v', '--version']) {
      const r = await cli([flag]).done;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^\d+\.\d+\.\d+/);
    }
  });

  it('help into a reader that stops early (`| head -1`): exit 0, no stack trace', async () => {
    // The shell's `longhaul --help | head -1`: stdout is a pipe whose reader is gone after one line.
    const child = spawn(process.execPath, [BIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const { code } = await childEnded(child);
    clearTimeout(timer);
    assert.equal(code, 0, `exit code; stderr: ${stderr}`);
    assert.doesNotMatch(stderr, /EPIPE|at /);
  });

  for (const [args, names] of [
    [['run', '127.0.0.1', '-p', '0'], ['-p']],
    [['run', '127.0.0.1', '-p', '70000'], ['-p']],
    [['run', '127.0.0.1', '-p', 'x'], ['-p']],
    [
      ['run', 'host:5501', '-p', '5502'],
      ['-p', 'host:5501', '5502'],
    ],
    [['run', 'lab-a', 'lab-b', '-J', '-V'], ['-J']],
  ] as const) {
    it(`${args.join(' ')} → exit 2 naming ${names.join(' and ')}`, async () => {
      const r = await cli([...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      for (const n of names) assert.ok(r.stderr.includes(n), `stderr names ${n}: ${r.stderr}`);
    });
  }
});
