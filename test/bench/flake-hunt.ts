/**
 * `npm run flake-hunt -- [--runs N] [--busy-core] FILTER...`: each compiled test file whose path holds a
 * FILTER (dist/test/**\/*.test.js), run N times in a row (default 5) as the suite runs it, optionally with
 * another program keeping one core busy the whole time (a laptop's browser or virus scanner). Prints, per
 * file, the runs, the failures, the names of the failed tests and the duration range, as the markdown table
 * docs/contributing.md ("Tests under load") carries. Not a retry: every run counts. Each run is bounded
 * (RUN_TIMEOUT_MS, killed past it) and the busy child is killed at exit. A failed run's TAP output is kept in
 * `--keep DIR` (default: a fresh folder under the OS temp dir, named at the end) to read the cause.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** One file's run may take this long (the longest files take about 4 min on a 2-core machine): past it, a failure. */
const RUN_TIMEOUT_MS = 15 * 60_000;
const MAX_RUNS = 20;

const { values: opts, positionals: filters } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '5' }, 'busy-core': { type: 'boolean', default: false }, keep: { type: 'string' } },
});
const runs = Math.max(1, Math.min(MAX_RUNS, Number(opts.runs) || 5));

function find(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? find(p) : name.endsWith('.test.js') ? [p] : [];
  });
}

const files = find('dist/test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`flake-hunt: no compiled test file matches ${filters.join(' ') || '(all)'}; run npm run build first\n`);
  process.exit(2);
}

const busy: ChildProcess | null = opts['busy-core'] ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
const stopBusy = (): void => void busy?.kill('SIGKILL');
process.on('exit', stopBusy);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

/** The failed tests' names in a TAP stream (`not ok N - name`), the file's own summary line left out. */
function failedNames(tap: string): string[] {
  return [...tap.matchAll(/^\s*not ok \d+ - (.+)$/gm)].map((m) => (m[1] ?? '').trim()).filter((n) => !n.endsWith('.test.js'));
}

interface FileRow {
  file: string;
  failures: number;
  names: Set<string>;
  seconds: number[];
}

// As scripts/run-tests.js: the runs' own identity and History (a `longhaul listen` records what it serves), never the user's.
const trustDir = mkdtempSync(join(tmpdir(), 'longhaul-flake-trust-'));
const env = {
  ...process.env,
  LONGHAUL_TRUST_DIR: process.env.LONGHAUL_TRUST_DIR ?? trustDir,
  LONGHAUL_DATA_DIR: process.env.LONGHAUL_DATA_DIR ?? join(trustDir, 'results'),
};
const keepDir = opts.keep ?? mkdtempSync(join(tmpdir(), 'longhaul-flake-hunt-'));
mkdirSync(keepDir, { recursive: true });
let kept = 0;
const rows: FileRow[] = [];
for (const file of files) {
  const row: FileRow = { file: file.replace(/^dist\//, '').replace(/\.js$/, '.ts'), failures: 0, names: new Set(), seconds: [] };
  for (let i = 0; i < runs; i++) {
    const began = Date.now();
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], {
      env,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 64 << 20,
    });
    row.seconds.push((Date.now() - began) / 1000);
    if (r.status !== 0) {
      row.failures++;
      const names = failedNames(r.stdout ?? '');
      for (const n of names.length ? names : [r.error ? `run killed: ${r.error.message}` : `exit ${r.status ?? r.signal}`]) row.names.add(n);
      writeFileSync(join(keepDir, `${row.file.replace(/[/\\]/g, '_')}.run${i + 1}.tap`), `${r.stdout ?? ''}\n--- stderr ---\n${r.stderr ?? ''}`);
      kept++;
    }
    process.stderr.write(`${row.file} run ${i + 1}/${runs}: ${r.status === 0 ? 'pass' : 'FAIL'} in ${row.seconds.at(-1)?.toFixed(0)} s\n`);
  }
  rows.push(row);
}
rmSync(trustDir, { recursive: true, force: true });
stopBusy();

const range = (xs: number[]): string => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
process.stdout.write(
  `\n${new Date().toISOString().slice(0, 10)}, ${runs} runs per file${busy ? ', one core kept busy by another program' : ''}\n\n` +
    '| file | runs | failures | failed tests | seconds per run |\n|---|---|---|---|---|\n' +
    rows.map((r) => `| ${r.file} | ${runs} | ${r.failures} | ${[...r.names].join('; ').replace(/\|/g, '\\|') || '–'} | ${range(r.seconds)} |`).join('\n') +
    `\n${kept ? `The failed runs' output: ${keepDir}\n` : ''}`,
);
if (!kept && !opts.keep) rmSync(keepDir, { recursive: true, force: true });
process.exit(rows.some((r) => r.failures) ? 1 : 0);
