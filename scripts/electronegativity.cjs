#!/usr/bin/env node
// Runs Doyensec's Electronegativity over the app's Electron surface and prints its findings as JSON.
// Run it only without network access (`unshare -n`): the tool fetches translations and Electron's
// release list from the internet on every run; offline it says so and goes on.
//   unshare -n node scripts/electronegativity.cjs   (test/security/electronegativity.test.ts does this)
const { cpSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const run = require('@doyensec/electronegativity');

const root = path.join(__dirname, '..');
const FILES = ['electron/main.ts', 'electron/preload.ts', 'electron/electron-types.ts', 'renderer/index.html', 'package.json'];
const dir = mkdtempSync(path.join(os.tmpdir(), 'longhaul-electronegativity-'));
for (const f of FILES) cpSync(path.join(root, f), path.join(dir, path.basename(f)));
const electronVersion = require(path.join(root, 'package.json')).optionalDependencies.electron.replace(/^[^\d]*/, '');
run({
  input: dir,
  output: path.join(dir, 'out.csv'),
  isSarif: false,
  customScan: null,
  severitySet: null,
  confidenceSet: null,
  isRelative: true,
  isVerbose: false,
  electronUpgrade: null,
  electronVersionOverride: electronVersion,
  parserPlugins: [],
})
  .then(
    (r) => {
      process.stdout.write(
        JSON.stringify({
          scanned: FILES,
          electronVersion,
          errors: r.errors,
          issues: r.issues.map((i) => ({
            id: i.id,
            severity: i.severity.name,
            confidence: i.confidence.name,
            file: i.file,
            line: i.location.line,
            description: i.description,
          })),
        }) + '\n',
      );
    },
    (err) => {
      process.stderr.write(`electronegativity failed: ${err.stack || err}\n`);
      process.exitCode = 1;
    },
  )
  .finally(() => {
    // The scanner may still be flushing its report: retry instead of failing the run on ENOTEMPTY.
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch {
      /* a temp folder left behind is not a finding */
    }
  });
