#!/usr/bin/env node
// `npm start`: launch the desktop app if Electron's binary is installed; say clearly what
// is missing otherwise (its postinstall downloads the binary, which fails without internet).
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const require = createRequire(import.meta.url);
let electronPath = null;
try {
  electronPath = require('electron'); // the package exports the binary's path
} catch {
  electronPath = null;
}
if (typeof electronPath !== 'string' || !existsSync(electronPath)) {
  console.error(`longhaul: the Electron binary is not installed, so the desktop app cannot start here.

What is missing: Electron's platform binary. The 'electron' npm package downloads it in
its install step, from the internet; on this machine that download is not possible (or
the package was skipped because this Node.js is older than Electron requires).

To get it, on a machine with internet access:   npm install electron
Without it, everything else works:
  npx longhaul loopback          a test with both ends on this PC, in the terminal
  npx longhaul listen | run      the two ends of a real test, headless`);
  process.exit(1);
}
const child = spawn(electronPath, ['.'], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
