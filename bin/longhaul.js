#!/usr/bin/env node
// The `longhaul` command. The TypeScript sources compile to dist/ on `npm ci`
// (the `prepare` script); this shim only finds them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/electron/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('longhaul: the compiled sources are missing (dist/). Run `npm run build` in the project folder first.');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
