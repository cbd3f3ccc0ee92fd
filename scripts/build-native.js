#!/usr/bin/env node
// Builds the socket addon in native/ with node-gyp. Run by `npm ci` / `npm install`
// (the "install" script) and by `npm run build:native`.
//
// - Uses the Node headers in /usr/include/node when they exist (nodedir=/usr):
//   node-gyp would otherwise try to download them, which fails offline.
// - `--optional` (the install step): a missing compiler or a failed build only
//   warns. Longhaul then runs without the addon, uses the OS default window and
//   says so in every result. Without `--optional` a failure exits 1.
// - `--optional` also leaves alone a build made from the same sources that loads
//   (scripts/native-stamp.js says why); `npm run build:native` always rebuilds.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addonPath, sourceDigest, staleReason, writeStamp } from './native-stamp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const optional = process.argv.includes('--optional');
const require = createRequire(import.meta.url);

function fail(message) {
  if (optional) {
    console.warn(`longhaul: native socket addon not built (${message}).`);
    console.warn('longhaul: runs will use the OS default TCP window and report TCP_INFO as unavailable; `npm run build:native` retries.');
    process.exit(0);
  }
  console.error(`longhaul: native socket addon build failed: ${message}`);
  process.exit(1);
}

if (process.env.LONGHAUL_SKIP_NATIVE_BUILD === '1') fail('LONGHAUL_SKIP_NATIVE_BUILD=1');
let gyp;
try {
  gyp = require.resolve('node-gyp/bin/node-gyp.js');
} catch {
  fail('node-gyp is not installed (it is a devDependency)');
}
const nativeDir = join(root, 'native');
const digest = sourceDigest(nativeDir, require('node-addon-api/package.json').version);
if (optional && staleReason(nativeDir, digest) === null && loads(addonPath(nativeDir))) {
  console.log('longhaul: native socket addon is up to date (native/build/Release/), not rebuilt');
  process.exit(0);
}
const args = [gyp, 'rebuild', '--directory', join(root, 'native')];
const nodedir = process.env.npm_config_nodedir || (existsSync('/usr/include/node/node_api.h') ? '/usr' : '');
if (nodedir) args.push(`--nodedir=${nodedir}`);
// Optional builds keep node-gyp's chatter to themselves and show only its last lines on failure.
const r = spawnSync(process.execPath, args, { stdio: optional ? ['ignore', 'ignore', 'pipe'] : 'inherit', cwd: root, encoding: 'utf8' });
if (r.status !== 0) {
  if (optional && r.stderr)
    console.warn(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('gyp info'))
        .slice(-6)
        .join('\n'),
    );
  fail(`node-gyp exited with ${r.status ?? r.signal}; is a C++ compiler (g++, make, python3) installed?`);
}
writeStamp(nativeDir, digest);
if (!optional) console.log('longhaul: native socket addon built in native/build/Release/');

/** Whether this Node loads the addon (a build for another platform or a truncated file does not). */
function loads(file) {
  const r = spawnSync(process.execPath, ['-e', 'require(process.argv[1])', file], { stdio: 'ignore', timeout: 10_000 });
  return r.status === 0;
}
