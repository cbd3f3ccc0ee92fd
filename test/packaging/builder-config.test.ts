/**
 * electron-builder.yml through electron-builder's own API: its JSON schema and
 * package.json checks accept it, reject a misspelled option and Electron in
 * "dependencies", and none of it opens a socket (validation stops before any download).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadBuilderConfig, validateBuilderConfig, type BuilderConfig } from '../../scripts/packaging/builder-api.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { childEnded } from '../helpers/child-exit.js';

const section = (c: BuilderConfig, key: string): Record<string, unknown> => (c[key] ?? {}) as Record<string, unknown>;
const targetsOf = (c: BuilderConfig, key: string): { target: string; arch: string[] }[] => section(c, key).target as { target: string; arch: string[] }[];

/** A copy of the project's package.json and config in a temporary folder, optionally edited. */
function projectCopy(dir: string, editConfig: (yml: string) => string, editPkg: (pkg: Record<string, unknown>) => void = () => {}): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  editPkg(pkg);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
  writeFileSync(path.join(dir, 'electron-builder.yml'), editConfig(readFileSync(path.join(REPO, 'electron-builder.yml'), 'utf8')));
  return dir;
}

describe('electron-builder configuration', { timeout: 60_000 }, () => {
  it("passes electron-builder's schema and package.json checks", async () => {
    const config = await loadBuilderConfig(REPO);
    await validateBuilderConfig(REPO, config);
    assert.equal(config.appId, 'io.github.longhaul.app');
    assert.equal(config.productName, 'Longhaul');
    assert.equal(config.directories?.buildResources, 'build');
    // The version comes from package.json, never from the config.
    assert.equal(config.version, undefined);
    assert.equal((config.extraMetadata as { version?: string } | undefined)?.version, undefined);
  });

  it('builds the installers the issue asks for', async () => {
    const config = await loadBuilderConfig(REPO);
    const win = targetsOf(config, 'win');
    assert.deepEqual(win.find((t) => t.target === 'nsis')?.arch, ['x64', 'arm64']);
    assert.deepEqual(win.find((t) => t.target === 'portable')?.arch, ['x64', 'arm64']);
    assert.deepEqual(
      targetsOf(config, 'linux')
        .map((t) => t.target)
        .sort(),
      ['AppImage', 'deb'],
    );
    assert.deepEqual(
      targetsOf(config, 'mac').map((t) => t.target),
      ['dmg'],
    );
    const nsis = section(config, 'nsis');
    assert.equal(nsis.perMachine, false, 'per-user: installs without admin rights');
    assert.equal(nsis.oneClick, false);
    assert.equal(nsis.createDesktopShortcut, 'always');
    assert.equal(nsis.createStartMenuShortcut, true);
    assert.ok(existsSync(path.join(REPO, String(nsis.include))), 'the NSIS include (firewall rule) exists');
    const nsh = readFileSync(path.join(REPO, String(nsis.include)), 'utf8');
    assert.match(nsh, /!macro customInstall[\s\S]*UAC_IsAdmin[\s\S]*advfirewall firewall add rule[\s\S]*!macroend/);
    assert.match(nsh, /!macro customUnInstall[\s\S]*advfirewall firewall delete rule[\s\S]*!macroend/);
    assert.ok(existsSync(path.join(REPO, 'build', 'icon.svg')));
  });

  it('keeps the data workers forkable: the RunAsNode fuse is not turned off', async () => {
    // Electron's fork() runs the app's own executable with ELECTRON_RUN_AS_NODE=1; the fuse
    // `runAsNode: false` would make every data worker fail to start in the packaged app.
    const config = await loadBuilderConfig(REPO);
    assert.notEqual((config.electronFuses as { runAsNode?: boolean } | undefined)?.runAsNode, false);
    assert.notEqual(config.asar, false);
  });

  it("rejects a misspelled option with electron-builder's own message", async (t) => {
    const dir = projectCopy(tmpDir(t), (yml) => yml.replace('oneClick: false', 'oneClik: false'));
    const config = await loadBuilderConfig(dir);
    await assert.rejects(validateBuilderConfig(dir, config), /configuration\.nsis[\s\S]*unknown option: nsis\.oneClik/);
  });

  it('rejects Electron listed in "dependencies" (it would be packed into the app)', async (t) => {
    const dir = projectCopy(
      tmpDir(t),
      (yml) => yml,
      (pkg) => {
        (pkg.dependencies as Record<string, string>).electron = '45.5.0';
      },
    );
    const config = await loadBuilderConfig(dir);
    await assert.rejects(validateBuilderConfig(dir, config), /"electron" is only allowed in "devDependencies"/);
  });

  it('validates without opening a single network connection', async () => {
    // A child process whose every socket connect throws: validation must still pass.
    const probe = `
      import net from 'node:net';
      const attempts = [];
      const connect = net.Socket.prototype.connect;
      net.Socket.prototype.connect = function (...a) { attempts.push(JSON.stringify(a[0])); throw new Error('network used'); };
      const api = await import(${JSON.stringify(path.join(REPO, 'dist/scripts/packaging/builder-api.js'))});
      const c = await api.loadBuilderConfig(${JSON.stringify(REPO)});
      await api.validateBuilderConfig(${JSON.stringify(REPO)}, c);
      net.Socket.prototype.connect = connect;
      console.log(JSON.stringify({ ok: true, attempts }));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', probe], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const { code } = await childEnded(child);
    clearTimeout(timer);
    assert.equal(code, 0, err);
    const last = JSON.parse(out.trim().split('\n').at(-1)!) as { ok: boolean; attempts: string[] };
    assert.deepEqual(last, { ok: true, attempts: [] });
  });
});
