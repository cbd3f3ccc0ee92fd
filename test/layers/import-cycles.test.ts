/**
 * No import cycles under electron/ and renderer/src/ (type imports included): the layers test
 * ranks folders, this one the files inside them. Proved on bad samples first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';
import { importCycles } from './import-cycles.js';

const ELECTRON = path.join(REPO, 'electron');

describe('import cycles', () => {
  it('finds a two-file type cycle, a longer one and a self-import in bad samples', () => {
    const f = (name: string) => path.join(ELECTRON, 'contract', name);
    const sources = new Map([
      [f('advice.ts'), "import type { LimiterVerdict } from './result.js';"],
      [f('result.ts'), "import type { Advice } from './advice.js';\nimport { z } from 'zod';"],
      [f('a.ts'), "export { b } from './b.js';"],
      [f('b.ts'), "const c = await import('./c.js');"],
      [f('c.ts'), "import { a } from './a.js';"],
      [f('self.ts'), "import { self } from './self.js';"],
      [f('leaf.ts'), "import { a } from './a.js';"],
    ]);
    assert.deepEqual(importCycles(sources), [[f('a.ts'), f('b.ts'), f('c.ts')], [f('advice.ts'), f('result.ts')], [f('self.ts')]]);
    assert.deepEqual(importCycles(new Map([[f('leaf.ts'), "import { a } from './a.js';"]])), []);
  });

  it('holds for every file under electron/ and renderer/src/', () => {
    const files = [...sourceFiles(ELECTRON, /\.ts$/), ...sourceFiles(path.join(REPO, 'renderer', 'src'), /\.(ts|svelte)$/)];
    assert.ok(files.length >= 100, `found ${files.length} sources`);
    const cycles = importCycles(new Map(files.map((f) => [f, readFileSync(f, 'utf8')])));
    assert.deepEqual(
      cycles.map((c) => c.map((f) => path.relative(REPO, f)).join(' ↔ ')),
      [],
    );
  });
});
