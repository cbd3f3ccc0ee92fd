/**
 * The package holds everything the app loads: electron-builder's own matcher
 * over electron-builder.yml "files" against the load graph read from the built
 * app (main → preload, renderer page and assets, data worker), the native
 * prebuild of every platform-arch the config builds (unpacked from asar), and
 * the production dependencies. Then the same check catches a broken config.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filePatterns, loadBuilderConfig, type BuilderConfig } from '../../scripts/packaging/builder-api.js';
import { checkPackageContents, contentsProblems } from '../../scripts/packaging/package-contents.js';
import { REPO } from '../helpers/processes.js';

const edited = async (edit: (c: BuilderConfig) => void): Promise<BuilderConfig> => {
  const c = structuredClone(await loadBuilderConfig(REPO));
  edit(c);
  return c;
};

describe('packaged files vs what the app loads', { timeout: 60_000 }, () => {
  it('selects every entry point and everything they load', async () => {
    const r = checkPackageContents(REPO, await loadBuilderConfig(REPO));
    const files = r.graph.files;
    assert.equal(files[0], 'dist/electron/main.js', 'package.json main is the root');
    for (const f of [
      'dist/preload/preload.cjs',
      'dist/ui/index.html',
      'dist/electron/engine/data-plane/data-worker/index.js',
      'dist/electron/native/load-native.js',
    ]) {
      assert.ok(files.includes(f), `${f} is reached from main`);
    }
    assert.ok(
      files.some((f) => /^dist\/ui\/assets\/index-.*\.js$/.test(f)),
      'the renderer bundle is reached from index.html',
    );
    assert.ok(r.graph.directories.includes('native'), 'the native addon folder is referenced');
    assert.ok(r.graph.packages.includes('node-gyp-build') && r.graph.packages.includes('electron'));
    assert.deepEqual(contentsProblems(r), []);
  });

  it('plans a native prebuild for each installer arch, unpacked from app.asar', async () => {
    const r = checkPackageContents(REPO, await loadBuilderConfig(REPO));
    assert.deepEqual(r.targets.map((t) => `${t.platform}-${t.arch}`).sort(), ['darwin-arm64', 'darwin-x64', 'linux-x64', 'win32-arm64', 'win32-x64']);
    assert.deepEqual(r.nativeProblems, []);
    assert.ok(!r.wronglyPackaged.includes('native/build/Release/longhaul_native.node'), 'the npm ci build (one arch) stays out');
  });

  it('catches a config that leaves the preload out', async () => {
    const c = await edited((x) => filePatterns(x).splice(filePatterns(x).indexOf('dist/preload/**/*'), 1));
    const r = checkPackageContents(REPO, c);
    assert.deepEqual(r.notPackaged, ['dist/preload/preload.cjs']);
  });

  it('catches a native addon left inside app.asar or built for one arch only', async () => {
    const packedNative = checkPackageContents(REPO, await edited((x) => delete x.asarUnpack));
    assert.equal(packedNative.nativeProblems.length, 5);
    assert.match(packedNative.nativeProblems[0]!, /not unpacked from app\.asar/);
    const wholeFolder = checkPackageContents(REPO, await edited((x) => filePatterns(x).push('native/**/*')));
    assert.ok(wholeFolder.wronglyPackaged.includes('native/build/Release/longhaul_native.node'));
    assert.ok(wholeFolder.wronglyPackaged.includes('native/src/addon.cc') === false, 'electron-builder itself drops *.cc');
  });

  it('catches the data worker excluded by a pattern', async () => {
    const c = await edited((x) => filePatterns(x).push('!dist/electron/engine/data-plane/data-worker/index.js'));
    assert.deepEqual(checkPackageContents(REPO, c).notPackaged, ['dist/electron/engine/data-plane/data-worker/index.js']);
  });
});
