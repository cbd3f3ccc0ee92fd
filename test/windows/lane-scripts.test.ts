/**
 * The Windows lane's build pieces that need neither Wine nor mingw-w64: reading
 * binding.gyp for Windows, the export-table parse behind the import libraries, the
 * DLL check after the link, and the path mapping of the tests' Wine helper.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { evalCondition, readGypTarget, resolveSettings } from '../../scripts/windows-lane/gyp-target.js';
import { defFile, nodeApiExports } from '../../scripts/windows-lane/node-api-imports.js';
import { importedDlls } from '../../scripts/windows-lane/toolchain.js';
import { prefixDir } from '../../scripts/windows-lane/lane.js';
import { REPO } from '../helpers/processes.js';
import { toLinuxPath, toWindowsPath } from './wine-node.js';

describe('reading binding.gyp for Windows', () => {
  it('evaluates OS conditions and refuses any other', () => {
    assert.equal(evalCondition("OS=='win'", 'win'), true);
    assert.equal(evalCondition('OS!="win"', 'win'), false);
    assert.equal(evalCondition("OS=='mac'", 'win'), false);
    assert.throws(() => evalCondition("OS=='win' and target_arch=='x64'", 'win'), /not understood/);
  });

  it('folds the matching branch of a condition in, and the else branch of the others', () => {
    const s = resolveSettings(
      {
        sources: ['a.cc'],
        conditions: [
          ["OS=='win'", { sources: ['w.cc'], libraries: ['ws2_32.lib'] }],
          ["OS=='mac'", { sources: ['m.cc'] }, { defines: ['NOT_MAC'] }],
        ],
      },
      'win',
    );
    assert.deepEqual(s, { sources: ['a.cc', 'w.cc'], libraries: ['ws2_32.lib'], defines: ['NOT_MAC'] });
  });

  it('reads the addon target: every source, NAPI_VERSION, ws2_32, and node-addon-api without exceptions', () => {
    const t = readGypTarget(path.join(REPO, 'native', 'binding.gyp'), 'longhaul_native', 'win');
    assert.ok(
      t.sources.some((s) => s.endsWith(path.join('native', 'src', 'addon.cc'))),
      t.sources.join(),
    );
    assert.ok(t.sources.some((s) => s.endsWith('socket_win.cc')));
    assert.ok(t.defines.includes('NAPI_VERSION=8'), t.defines.join());
    assert.ok(t.defines.includes('NODE_ADDON_API_DISABLE_CPP_EXCEPTIONS'), t.defines.join());
    assert.ok(t.cxxFlags.includes('-fno-exceptions'), t.cxxFlags.join());
    assert.deepEqual(t.libraries, ['ws2_32']);
    assert.ok(
      t.includeDirs.some((d) => d.endsWith(path.join('node_modules', 'node-addon-api'))),
      t.includeDirs.join(),
    );
  });
});

describe('Node-API import library inputs', () => {
  const objdump = [
    '[Ordinal/Name Pointer] Table',
    '\t[8753] napi_acquire_threadsafe_function',
    '\t[8754] node_api_symbol_for',
    '\t[9040] uv_hrtime',
    '\t[ 100] ?GetIsolate@v8@@YAPEAVIsolate@1@XZ',
    '\t[ 101] napi_acquire_threadsafe_function',
    'napi_in_a_sentence is not an export line',
  ].join('\n');

  it('keeps napi_* and node_api_* exports once each, and nothing of libuv or V8', () => {
    assert.deepEqual(nodeApiExports(objdump), ['napi_acquire_threadsafe_function', 'node_api_symbol_for']);
  });

  it('writes a .def that names node.exe as the library', () => {
    assert.equal(defFile('node.exe', ['a', 'b']), 'LIBRARY node.exe\nEXPORTS\n  a\n  b\n');
  });

  it('lists the DLLs of a PE import table', () => {
    const text = '\tDLL Name: KERNEL32.dll\n\tvma:  Hint/Ord Member-Name\n\tDLL Name: libwinpthread-1.dll\n';
    assert.deepEqual(importedDlls(text), ['KERNEL32.dll', 'libwinpthread-1.dll']);
  });
});

describe('Wine path mapping', () => {
  it('maps Linux paths to Z:\\ and back', () => {
    assert.equal(toWindowsPath('/tmp/a b/r.json'), 'Z:\\tmp\\a b\\r.json');
    assert.equal(toLinuxPath('Z:\\tmp\\a b\\r.json'), '/tmp/a b/r.json');
    assert.throws(() => toWindowsPath('relative/path'), /absolute/);
  });

  it("maps C:\\ into the lane's prefix", () => {
    assert.equal(toLinuxPath('C:\\users\\me\\My Results\\r.json'), path.join(prefixDir(), 'drive_c', 'users', 'me', 'My Results', 'r.json'));
    assert.equal(toLinuxPath('c:\\'), path.join(prefixDir(), 'drive_c'));
    assert.throws(() => toLinuxPath('D:\\x'), /only C: and Z:/);
  });
});
