#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's own test runner.
// `npm test -- proxy` runs only the files whose path contains "proxy".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

function find(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(find(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = find('dist/test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}
// The tests' CLI processes get their own identity and peers, never the user's (~/.local/share/longhaul/trust),
// and their own History: every `longhaul listen` a test starts records the runs it serves there.
const trustDir = mkdtempSync(join(tmpdir(), 'longhaul-test-trust-'));
const env = {
  ...process.env,
  LONGHAUL_TRUST_DIR: process.env.LONGHAUL_TRUST_DIR ?? trustDir,
  LONGHAUL_DATA_DIR: process.env.LONGHAUL_DATA_DIR ?? join(trustDir, 'results'),
};
const timesFile = join(trustDir, 'file-times.jsonl');
const timesReporter = fileURLToPath(new URL('./test-file-times.js', import.meta.url));
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${timesReporter}`,
  `--test-reporter-destination=${timesFile}`,
];
const started = Date.now();
const r = spawnSync(process.execPath, ['--test', ...reporters, ...files], { stdio: 'inherit', env });
printSlowest(timesFile, (Date.now() - started) / 1000);
rmSync(trustDir, { recursive: true, force: true });
process.exit(r.status ?? 1);

// The ten slowest files and their share of the whole, so a slow CI's cause is in its own log.
function printSlowest(path, wallS) {
  if (!existsSync(path)) return;
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .sort((a, b) => b.ms - a.ms);
  const sumS = rows.reduce((s, x) => s + x.ms, 0) / 1000;
  console.log(`\n== test files: ${rows.length}, ${wallS.toFixed(0)} s in all (tests' own time ${sumS.toFixed(0)} s)`);
  console.log("== the slowest ten (seconds, share of the tests' own time, file):");
  for (const x of rows.slice(0, 10)) {
    const s = x.ms / 1000;
    const share = sumS > 0 ? ((100 * s) / sumS).toFixed(1) : '?';
    console.log(`${s.toFixed(1).padStart(8)}  ${share.padStart(5)} %  ${relative(process.cwd(), x.file)}`);
  }
}
