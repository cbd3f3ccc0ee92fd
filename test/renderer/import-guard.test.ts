/**
 * The renderer never imports engine code: only svelte, chart.js (and its
 * matrix chart type, for the sweep heat map), its own files and the contract types (electron/contract/*). Checked on the sources,
 * and the checker itself is checked on a bad sample so it cannot pass vacuously.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importSpecifiers, sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';

const RENDERER = path.join(REPO, 'renderer');
const CONTRACT = path.join(REPO, 'electron', 'contract') + path.sep;
const PACKAGES = /^(svelte|svelte\/[\w/-]+|chart\.js|chartjs-chart-matrix)$/;

/** The forbidden imports of one file's text (empty when it is clean). */
function badImports(file: string, text: string): string[] {
  const bad: string[] = [];
  for (const spec of importSpecifiers(text)) {
    if (spec.startsWith('.')) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(RENDERER + path.sep) && !target.startsWith(CONTRACT)) bad.push(spec);
    } else if (!PACKAGES.test(spec)) bad.push(spec);
  }
  return bad;
}

const sources = (dir: string): string[] => sourceFiles(dir, /\.(ts|js|svelte)$/, ['public']);

describe('renderer import boundary', () => {
  it('finds engine, Node and Electron imports in a bad sample', () => {
    const f = path.join(RENDERER, 'src', 'x.ts');
    const sample = [
      "import { startRun } from '../../electron/engine/session/controller.js';",
      "import fs from 'node:fs';",
      "import { ipcRenderer } from 'electron';",
      "const u = await import('../../electron/util/units.js');",
      "export { x } from '../../electron/protocol/messages.js';",
      "import type { LonghaulApi } from '../../electron/contract/api.js';",
      "import { mount } from 'svelte';",
      "import { MatrixController } from 'chartjs-chart-matrix';",
      "import { chartjsThing } from 'chartjs-chart-matrix-evil';",
    ].join('\n');
    assert.deepEqual(badImports(f, sample), [
      '../../electron/engine/session/controller.js',
      'node:fs',
      'electron',
      '../../electron/util/units.js',
      '../../electron/protocol/messages.js',
      'chartjs-chart-matrix-evil',
    ]);
  });

  it('holds for every file under renderer/', () => {
    const files = sources(path.join(RENDERER, 'src')); // renderer/svelte.config.js is build tooling, not page code
    assert.ok(files.length >= 15, `found ${files.length} renderer sources`);
    const offenders = files.flatMap((f) => badImports(f, readFileSync(f, 'utf8')).map((s) => `${path.relative(REPO, f)}: ${s}`));
    assert.deepEqual(offenders, []);
  });

  it('the contract files import nothing but each other (a folder inside contract/ included)', () => {
    for (const f of sources(CONTRACT)) {
      for (const spec of importSpecifiers(readFileSync(f, 'utf8'))) {
        const inside = spec.startsWith('.') && path.resolve(path.dirname(f), spec).startsWith(CONTRACT);
        assert.ok(inside, `${path.relative(REPO, f)} imports ${spec}`);
      }
    }
  });
});
