/**
 * `npm run bench`: Longhaul on loopback against iperf3, and against a second iperf3 (the newest, built
 * from esnet/iperf: docs/bench.md) in the same run. Per row (streams × write size, and -R rows) and
 * round, each tool runs once, their order rotating each round so drift in the machine's state favours
 * none; the report gives ranges over rounds of each tool's Gbit/s and of the whole machine's busy CPU
 * seconds per GB, and Longhaul ÷ each iperf3 in the same round. Markdown on stdout (progress on
 * stderr), `--json FILE` for the figures. Not a test: it asserts nothing and CI never runs it.
 *
 *   npm run bench -- [--seconds 5] [--rounds 3] [--configs 1x128K,2x1M,1x1M-R] [--json bench.json]
 *                    [--iperf3 /usr/bin/iperf3] [--iperf3-b /tmp/iperf321/src/iperf3]   (or LONGHAUL_BENCH_IPERF3_B)
 *                    [--longhaul-args='--workers 1'] [--longhaul-env 'LONGHAUL_DATA_CONN=owned']   (both longhaul ends)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify, parseArgs } from 'node:util';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { pcCpuBetween, readPcCpuTimes } from '../../electron/engine/data-plane/pc-cpu.js';
import { parseRate } from '../../electron/util/units.js';
import { childEnded } from '../helpers/child-exit.js';
import { BIN, REPO } from '../helpers/processes.js';
import { iperf3Figures, iperf3Version, longhaulFigures, type RunFigures } from './loopback-figures.js';
import {
  configLabel,
  DEFAULT_CONFIGS,
  markdownTable,
  parseConfigs,
  reportHeader,
  summarizeRow,
  type BenchConfig,
  type BenchMeta,
  type RowSummary,
  type ToolColumn,
  type ToolRun,
} from './loopback-table.js';

const exec = promisify(execFile);

/** How one tool's server and client are started for a row. */
interface Tool extends ToolColumn {
  path: string;
  /** iperf3's `--version` (`3.21`); empty for Longhaul. */
  version: string;
  /** The server's arguments on `port`; it prints a line matching /listening/i once it accepts. */
  serverArgs(port: number): string[];
  clientArgs(port: number, c: BenchConfig, seconds: number, jsonFile: string): string[];
  env: NodeJS.ProcessEnv;
  /** The client's figures from its stdout or the file it wrote. */
  figures(stdout: string, jsonFile: string): Promise<RunFigures>;
}

/** Every child the bench started and has not seen end; killed (by process group) on failure or Ctrl-C. */
const live = new Set<ChildProcess>();

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Starts a command in its own process group (a Longhaul end forks workers), stdout piped, tail of its output kept. */
function start(cmd: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true });
  live.add(child);
  void childEnded(child).then(() => live.delete(child));
  let out = '';
  const keep = (d: Buffer): void => {
    out = (out + d.toString()).slice(-64 * 1024);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => out };
}

/** Resolves when the server's output says it listens; rejects when it exits first or after `ms`. */
function listening(server: { child: ChildProcess; output: () => string }, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`server not listening after ${ms} ms:\n${server.output()}`)), ms);
    const onData = (): void => {
      if (/listening/i.test(server.output())) finish();
    };
    const onExit = (code: number | null): void => finish(new Error(`server exited (${code}) before listening:\n${server.output()}`));
    function finish(err?: Error): void {
      clearTimeout(timer);
      server.child.stdout?.off('data', onData);
      server.child.stderr?.off('data', onData);
      server.child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    }
    server.child.stdout?.on('data', onData);
    server.child.stderr?.on('data', onData);
    server.child.once('exit', onExit);
    onData();
  });
}

/** Bounded wait for a child's end; killed (with its group) when the bound passes. */
async function ended(child: ChildProcess, ms: number): Promise<number | null> {
  const timer = setTimeout(() => killGroup(child), ms);
  const { code } = await childEnded(child);
  clearTimeout(timer);
  return code;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

/** A paced run under this share of its -b × streams did not hold the pace: its CPU per GB is not comparable. */
const PACED_SHORTFALL = 0.95;

/** The whole machine's busy CPU seconds between two /proc/stat readings `wallSeconds` apart. */
function busySeconds(a: ReturnType<typeof readPcCpuTimes>, b: ReturnType<typeof readPcCpuTimes>, wallSeconds: number): number {
  const share = pcCpuBetween(a, b)?.busyShare;
  return share === undefined ? NaN : share * os.cpus().length * wallSeconds;
}

/** One run of one tool: server, then client; the machine's busy time from the client's start to both ends' exit. */
async function runOnce(tool: Tool, c: BenchConfig, seconds: number): Promise<RunFigures & { busyCpuSeconds: number; spanSeconds: number }> {
  const port = await freePort();
  const jsonFile = path.join(os.tmpdir(), `longhaul-bench-${process.pid}-${port}.json`);
  const boundMs = (seconds + 30) * 1000;
  const server = start(tool.path, tool.serverArgs(port), tool.env);
  try {
    await listening(server, 15_000);
    const before = readPcCpuTimes();
    const t0 = process.hrtime.bigint();
    const client = start(tool.path, tool.clientArgs(port, c, seconds, jsonFile), tool.env);
    let stdout = '';
    client.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    const clientCode = await ended(client.child, boundMs);
    // A failed client can leave the server waiting for another: stop now (finally kills it) rather than wait out its bound.
    if (clientCode !== 0) throw new Error(`${tool.label} client exited ${clientCode}:\n${client.output().slice(-2000)}`);
    const serverCode = await ended(server.child, 15_000);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const busy = busySeconds(before, readPcCpuTimes(), wall);
    if (serverCode !== 0) throw new Error(`${tool.label} server exited ${serverCode}:\n${server.output().slice(-2000)}`);
    const f = await tool.figures(stdout, jsonFile);
    const want = c.reverse ? 'server' : 'client';
    if (f.sender !== want) throw new Error(`${tool.label}'s JSON says the ${f.sender} sent; ${configLabel(c)} asks the ${want} to`);
    if (f.streams !== c.streams || f.lengthBytes !== c.lengthBytes) {
      throw new Error(`${tool.label} ran ${f.streams} streams of ${f.lengthBytes} B writes; ${configLabel(c)} asked otherwise`);
    }
    // A paced row compares CPU at the same rate: a tool that fell short of it moved fewer bits per second, and the row says so.
    const target = c.bitrate ? parseRate(c.bitrate) * c.streams : null;
    const notes =
      target !== null && f.bitsPerSecond < PACED_SHORTFALL * target
        ? [...f.notes, `below its -b (${(f.bitsPerSecond / target).toFixed(2)} of the target)`]
        : f.notes;
    return { ...f, notes, busyCpuSeconds: busy, spanSeconds: wall };
  } finally {
    for (const child of live) killGroup(child);
    await rm(jsonFile, { force: true });
  }
}

function iperf3Tool(key: string, bin: string, version: string): Tool {
  return {
    key,
    label: `iperf3 ${version}`,
    path: bin,
    version,
    env: process.env,
    serverArgs: (port) => ['-s', '-1', '-B', '127.0.0.1', '-p', String(port), '--forceflush'],
    clientArgs: (port, c, seconds) => [
      ...['-c', '127.0.0.1', '-p', String(port), '-t', String(seconds), '-l', String(c.lengthBytes), '-P', String(c.streams), '-J'],
      ...(c.reverse ? ['-R'] : []),
      ...(c.bitrate ? ['-b', c.bitrate] : []),
    ],
    figures: async (stdout) => iperf3Figures(stdout),
  };
}

function longhaulTool(extra: string[], env: Record<string, string>): Tool {
  const at = extra.indexOf('--workers');
  const workers = at >= 0 ? extra.slice(at, at + 2) : [];
  return {
    key: 'longhaul',
    label: 'Longhaul',
    path: process.execPath,
    version: '',
    env: { ...process.env, ...env, CI: 'true' },
    serverArgs: (port) => [BIN, 'listen', '--once', '--bind', '127.0.0.1', '--port', String(port), '--no-record', ...workers],
    clientArgs: (port, c, seconds, jsonFile) => [
      ...[BIN, 'run', `127.0.0.1:${port}`, '-t', String(seconds), '-l', String(c.lengthBytes), '-P', String(c.streams)],
      ...(c.reverse ? ['-R'] : []),
      ...(c.bitrate ? ['-b', c.bitrate] : []),
      ...extra,
      ...['--json', jsonFile],
    ],
    figures: async (_stdout, jsonFile) => longhaulFigures(JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult),
  };
}

async function versionOf(bin: string): Promise<string> {
  const { stdout } = await exec(bin, ['--version'], { timeout: 5000 });
  const v = iperf3Version(stdout);
  if (!v) throw new Error(`${bin} --version printed no iperf version: ${stdout.slice(0, 200)}`);
  return v;
}

async function longhaulCommit(): Promise<string> {
  try {
    return (await exec('git', ['-C', REPO, 'describe', '--always', '--dirty'], { timeout: 5000 })).stdout.trim();
  } catch {
    return 'of unknown commit';
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'longhaul-args': { type: 'string', default: '' },
      'longhaul-env': { type: 'string', default: '' },
      iperf3: { type: 'string', default: 'iperf3' },
      'iperf3-b': { type: 'string', default: process.env.LONGHAUL_BENCH_IPERF3_B ?? '' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      configs: { type: 'string', default: DEFAULT_CONFIGS },
      json: { type: 'string' },
    },
  });
  const seconds = Math.max(1, Math.min(60, Number(values.seconds) || 5));
  const rounds = Math.max(1, Math.min(20, Number(values.rounds) || 3));
  const configs = parseConfigs(values.configs);
  const env = Object.fromEntries(
    values['longhaul-env']
      .split(/\s+/)
      .filter((kv) => /^[A-Z_][A-Z0-9_]*=[\w.,-]*$/.test(kv))
      .map((kv) => kv.split('=') as [string, string]),
  );
  const loadAverage = os.loadavg()[0] ?? NaN;
  const refs = [iperf3Tool('iperf3', values.iperf3, await versionOf(values.iperf3))];
  if (values['iperf3-b']) refs.push(iperf3Tool('iperf3-b', values['iperf3-b'], await versionOf(values['iperf3-b'])));
  if (refs.length === 2 && refs[0]?.label === refs[1]?.label) for (const [i, t] of refs.entries()) t.label += i === 0 ? ' (a)' : ' (b)';
  const longhaul = longhaulTool(values['longhaul-args'].split(/\s+/).filter(Boolean), env);
  const tools: Tool[] = [...refs, longhaul];
  const meta: BenchMeta = {
    date: new Date().toISOString(),
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    kernel: `${os.type()} ${os.release()}`,
    loadAverage,
    seconds,
    rounds,
    longhaul: `${await longhaulCommit()}${Object.keys(env).length ? ` with ${values['longhaul-env']}` : ''}`,
    tools: refs.map((t) => ({ label: t.label, path: t.path, version: t.version })),
  };
  const header = reportHeader(meta);
  for (const l of header) console.error(l);

  const rows: RowSummary[] = [];
  const allRuns: (ToolRun & { config: string; spanSeconds: number })[] = [];
  for (const c of configs) {
    const runs: ToolRun[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = [...tools.slice(r % tools.length), ...tools.slice(0, r % tools.length)];
      for (const tool of order) {
        const f = await runOnce(tool, c, seconds);
        const run: ToolRun = { tool: tool.key, round: r + 1, bitsPerSecond: f.bitsPerSecond, bytes: f.bytes, busyCpuSeconds: f.busyCpuSeconds, notes: f.notes };
        runs.push(run);
        allRuns.push({ config: configLabel(c), ...run, spanSeconds: f.spanSeconds });
        const perGB = f.busyCpuSeconds / (f.bytes / 1e9);
        console.error(
          `  ${configLabel(c)} round ${r + 1}: ${tool.label} ${(f.bitsPerSecond / 1e9).toFixed(2)} Gbit/s, ${perGB.toFixed(3)} CPU s/GB${f.notes.length ? ` (${f.notes.join('; ')})` : ''}`,
        );
      }
    }
    rows.push(
      summarizeRow(
        configLabel(c),
        runs,
        longhaul.key,
        refs.map((t) => t.key),
      ),
    );
  }
  console.log([...header, '', markdownTable(rows, tools, longhaul.key)].join('\n'));
  if (values.json) {
    await writeFile(values.json, `${JSON.stringify({ schema: 'longhaul.bench-loopback/1', ...meta, rows, runs: allRuns }, null, 2)}\n`);
    console.error(`figures written to ${values.json}`);
  }
}

function stopAll(): void {
  for (const child of live) killGroup(child);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });
}
main().catch((err) => {
  stopAll();
  console.error(err);
  process.exit(1);
});
