/**
 * The mingw-w64 build of the addon under Wine, in the hosts it meets on Windows:
 * node.exe, and Longhaul.exe (Electron, whose data workers run with
 * ELECTRON_RUN_AS_NODE) — here a copy of node.exe under that name, alone in its folder.
 * Controls show what each part of native/src/win_delay_load.cc is for: the same
 * objects linked without it do not load in Longhaul.exe, a lazily bound first call
 * loses its double argument, and a host without Node-API gets a clean load failure.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { nodeApiIncludeDir } from '../../scripts/windows-lane/build-native-win.js';
import { MINGW, nodeExePath, WIN_ADDON } from '../../scripts/windows-lane/lane.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { laneReady, runWindowsNode, runWine, toWindowsPath, useWindowsLane } from './wine-node.js';

const FIXTURES = path.join(REPO, 'test', 'windows', 'fixtures');
const fixture = (name: string): string => path.join(FIXTURES, name);

interface AddonReport {
  exe: string;
  electronRunAsNode: string | null;
  tcpInfoSource?: string;
  functions?: string[];
  numbers?: Record<string, number>;
  error?: string;
  child?: AddonReport;
}

/** What build-native-win wrote beside its objects (native/build-win/build.json). */
interface BuildInfo {
  objects: string[];
  hookObject: string;
  libs: { delayLib: string; plainLib: string };
  libraries: string[];
}

function buildInfo(): BuildInfo {
  return JSON.parse(readFileSync(path.join(REPO, 'native', 'build-win', 'build.json'), 'utf8')) as BuildInfo;
}

/** A copy of the lane's node.exe named `name`, alone in a fresh folder (no node.exe beside it). */
function renamedHost(t: TestContext, name: string): string {
  const exe = path.join(tmpDir(t), name);
  try {
    linkSync(nodeExePath(), exe);
  } catch {
    copyFileSync(nodeExePath(), exe);
  }
  return exe;
}

/** Runs the mingw-w64 C++ driver (it also compiles the .c fixtures, as C). */
function mingw(args: string[]): void {
  const r = spawnSync(MINGW.cxx, args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${MINGW.cxx} ${args.join(' ')}\n${r.stderr}`);
}

/** The report load-addon.cjs prints (its last stdout line). */
async function loadIn(exe: string, addon: string, fork: boolean): Promise<AddonReport> {
  const args = [toWindowsPath(fixture('load-addon.cjs')), toWindowsPath(addon), ...(fork ? ['--fork'] : [])];
  const r = await runWindowsNode(args, { exe, timeoutMs: 90_000 });
  assert.equal(r.code, 0, `exit ${r.code}${r.timedOut ? ' (timed out)' : ''}; stderr: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as AddonReport;
}

function assertLoaded(r: AddonReport, exe: string): void {
  assert.equal(r.error, undefined, `in ${exe}: ${r.error}`);
  assert.equal(r.exe, toWindowsPath(exe));
  assert.equal(r.tcpInfoSource, 'windows-sio_tcp_info');
  for (const f of ['createTcpSocket', 'tcpInfoInto', 'setBuffers', 'getBuffers', 'closeFd', 'connectStream', 'bindListen', 'acceptStream']) {
    assert.ok(r.functions?.includes(f), `${f} missing from ${r.functions?.join(', ')}`);
  }
}

describe('the Windows addon under Wine', { timeout: 300_000 }, () => {
  useWindowsLane();
  const addon = path.join(REPO, WIN_ADDON);

  it('loads in node.exe and in Longhaul.exe, and in a child each forks with ELECTRON_RUN_AS_NODE=1', async (t) => {
    if (!laneReady(t)) return;
    for (const exe of [nodeExePath(), renamedHost(t, 'Longhaul.exe')]) {
      const r = await loadIn(exe, addon, true);
      assertLoaded(r, exe);
      assert.ok(r.child, 'no report from the forked child');
      assertLoaded(r.child, exe);
      assert.equal(r.child.electronRunAsNode, '1');
    }
  });

  it("passes Longhaul's own loader (node-gyp-build finds native/prebuilds/win32-x64/node.napi.node)", async (t) => {
    if (!laneReady(t)) return;
    const loader = path.join(REPO, 'dist', 'electron', 'native', 'load-native.js');
    const script = path.join(tmpDir(t), 'loader.mjs');
    writeFileSync(
      script,
      `import { pathToFileURL } from 'node:url';
const m = await import(pathToFileURL(process.argv[2]).href);
const s = m.nativeSockets();
console.log(JSON.stringify({ reason: s.reason, source: s.api && s.api.tcpInfoSource }));
`,
    );
    const r = await runWindowsNode([toWindowsPath(script), toWindowsPath(loader)], { exe: renamedHost(t, 'Longhaul.exe') });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').pop()!), { reason: null, source: 'windows-sio_tcp_info' });
  });

  it('control: the same objects with a plain node.exe import library load in node.exe only', async (t) => {
    if (!laneReady(t)) return;
    const b = buildInfo();
    const plain = path.join(tmpDir(t), 'plain.node');
    mingw(['-shared', '-static', '-s', '-o', plain, ...b.objects.filter((o) => o !== b.hookObject), b.libs.plainLib, ...b.libraries.map((l) => `-l${l}`)]);
    assertLoaded(await loadIn(nodeExePath(), plain, false), nodeExePath());
    const exe = renamedHost(t, 'Longhaul.exe');
    const r = await loadIn(exe, plain, false);
    // Windows looks for a DLL named node.exe beside Longhaul.exe and on PATH: there is none.
    assert.match(r.error ?? '', /module not found/i);
  });

  it('binds Node-API before the first call: a double passed to the first call arrives intact', async (t) => {
    if (!laneReady(t)) return;
    const b = buildInfo();
    const dir = tmpDir(t);
    const include = nodeApiIncludeDir();
    assert.ok(include, 'node_api.h not found');
    const probe = (name: string, hook: string[]): string => {
      const out = path.join(dir, name);
      mingw([
        '-shared',
        '-static',
        '-s',
        '-o',
        out,
        '-DNAPI_VERSION=8',
        `-I${include}`,
        '-x',
        'c',
        fixture('first-call-double.c'),
        ...hook,
        '-x',
        'none',
        b.libs.delayLib,
      ]);
      return out;
    };
    const exe = renamedHost(t, 'Longhaul.exe');
    const read = async (addon: string): Promise<Record<string, number>> => {
      const r = await loadIn(exe, addon, false);
      assert.equal(r.error, undefined, r.error);
      return r.numbers ?? {};
    };
    assert.deepEqual(await read(probe('eager.node', ['-x', 'none', b.hookObject])), { first: 1.5, second: 2.5 });
    // Lazy binding is binutils' business, not an assertion: say what it did.
    const lazy = await read(probe('lazy.node', [fixture('lazy-hook.c')]));
    t.diagnostic(`lazily bound (node-gyp's hook alone): first=${lazy.first} second=${lazy.second}`);
  });

  it('fails to load, without crashing, in a host that exports no Node-API', async (t) => {
    if (!laneReady(t)) return;
    const exe = path.join(tmpDir(t), 'load-library.exe');
    mingw(['-O2', '-s', '-o', exe, '-x', 'c', fixture('load-library.c')]);
    const r = await runWine(exe, [toWindowsPath(addon)]);
    // 1114 ERROR_DLL_INIT_FAILED: DllMain refused because napi_* could not be bound.
    assert.equal(r.stdout.trim(), 'failed 1114', r.stderr);
    assert.equal(r.code, 1);
    assert.ok(existsSync(addon));
  });
});
