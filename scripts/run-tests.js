#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's own test runner.
// `npm test -- proxy` runs only the files whose path contains "proxy".
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
