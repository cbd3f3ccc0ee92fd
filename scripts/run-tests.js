#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's own test runner.
// `npm test -- proxy` runs only the files whose path contains "proxy".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
// The tests' CLI processes get their own identity and peers, never the user's (~/.local/share/longhaul/trust).
const trustDir = mkdtempSync(join(tmpdir(), 'longhaul-test-trust-'));
const env = { ...process.env, LONGHAUL_TRUST_DIR: process.env.LONGHAUL_TRUST_DIR ?? trustDir };
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
rmSync(trustDir, { recursive: true, force: true });
process.exit(r.status ?? 1);
