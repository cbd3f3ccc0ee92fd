/**
 * The plugin probe behind nsis-installer.test.ts, on small scripts with known
 * answers, against Debian's makensis: a stand-in DLL is read by makensis as a
 * plugin (and only for the functions it exports), and the probe names every
 * missing plugin function with its file and line, tells a plugin gap from any
 * other error, and keeps the warnings -WX would make fatal.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { callSite, gapsByDll, PLUGIN_ARCH, probeMissingPlugins } from '../../scripts/packaging/nsis-plugins.js';
import { stubPluginDll } from '../../scripts/packaging/stub-plugin-dll.js';
import { tmpDir } from '../helpers/tmp.js';
import { requireNsisTools, skipWithoutNsisTools } from './nsis-tools.js';

/** makensis on `body` (a Section's lines) with `pluginDir` added; exit code and output. */
function compile(makensis: string, dir: string, body: string, pluginDir: string): { code: number | null; out: string } {
  const script = `Unicode true\n!addplugindir /${PLUGIN_ARCH} "${pluginDir}"\nOutFile "${path.join(dir, 'out.exe')}"\nSection\n${body}\nSectionEnd\n`;
  const r = spawnSync(makensis, ['-V2', '-'], { input: script, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('NSIS plugin probe (Debian makensis)', { skip: skipWithoutNsisTools, timeout: 60_000 }, () => {
  it('makensis takes a stand-in DLL as a plugin with exactly the functions it exports', (t) => {
    const { makensis } = requireNsisTools();
    const dir = tmpDir(t);
    const plugins = path.join(dir, PLUGIN_ARCH);
    mkdirSync(plugins);
    assert.match(compile(makensis, dir, '  Fred::flintstone', plugins).out, /Plugin not found, cannot call Fred::flintstone/);
    writeFileSync(path.join(plugins, 'Fred.dll'), stubPluginDll('Fred', ['flintstone', '_', 'Zed']));
    const ok = compile(makensis, dir, '  Fred::flintstone a\n  Fred::_\n  fred::Zed', plugins);
    assert.equal(ok.code, 0, ok.out);
    assert.match(compile(makensis, dir, '  Fred::barney', plugins).out, /Plugin function not found, cannot call Fred::barney/);
  });

  it('names every missing plugin function and where it is called, and only those', (t) => {
    const { makensis } = requireNsisTools();
    const dir = tmpDir(t);
    writeFileSync(path.join(dir, 'uses-plugins.nsh'), '!macro useThem\n  Wilma::call one\n  Betty::ring\n!macroend\n');
    const script = Buffer.from(
      [
        'Unicode true',
        `!addincludedir "${dir}"`,
        '!include "uses-plugins.nsh"',
        'Section',
        '  System::Call "kernel32::GetTickCount() i .r0"', // Debian ships System.dll: not a gap
        '  !insertmacro useThem',
        '  Wilma::again',
        '  Wilma::call two',
        'SectionEnd',
        '',
      ].join('\n'),
    );
    const probe = probeMissingPlugins(makensis, ['-V2', `-XOutFile "${path.join(dir, 'x.exe')}"`, '-'], script, path.join(dir, 'scratch'));
    assert.equal(probe.otherError, null);
    assert.equal(probe.compilesWithStandIns, true);
    assert.deepEqual(gapsByDll(probe.gaps), [
      { dll: 'Wilma.dll', functions: ['call', 'again'] },
      { dll: 'Betty.dll', functions: ['ring'] },
    ]);
    assert.deepEqual(
      probe.gaps.map((g) => g.dllPresent),
      [false, false, true],
    );
    assert.ok(
      probe.gaps[0]!.where.some((w) => /useThem/.test(w)),
      probe.gaps[0]!.where.join(' | '),
    );
    assert.deepEqual(probe.gaps.map(callSite), ['<stdin>:6', '<stdin>:6', '<stdin>:7']);
  });

  it('tells another error from a plugin gap, and keeps the warnings that -WX makes fatal', (t) => {
    const { makensis } = requireNsisTools();
    const dir = tmpDir(t);
    const out = `-XOutFile "${path.join(dir, 'x.exe')}"`;
    const broken = probeMissingPlugins(
      makensis,
      [out, '-'],
      Buffer.from('Unicode true\nSection\n  Wilma::call\n  NoSuchCommand 1\nSectionEnd\n'),
      path.join(dir, 'a'),
    );
    assert.deepEqual(gapsByDll(broken.gaps), [{ dll: 'Wilma.dll', functions: ['call'] }]);
    assert.equal(broken.compilesWithStandIns, false);
    assert.match(broken.otherError ?? '', /NoSuchCommand/);
    const warned = probeMissingPlugins(
      makensis,
      ['-WX', out, '-'],
      Buffer.from('Unicode true\n!warning "the fallback strings"\nSection\n  Wilma::call\nSectionEnd\n'),
      path.join(dir, 'b'),
    );
    assert.equal(warned.compilesWithStandIns, true);
    assert.equal(warned.warningsAreErrors, true);
    assert.ok(
      warned.warnings.some((w) => /the fallback strings/.test(w)),
      warned.warnings.join(' | '),
    );
  });
});
