/**
 * Every export is imported by another file: a name used only inside its own
 * file is not exported, so what a file offers is what others use, and a dead
 * export does not hide as "public". Sources: electron/, renderer/, scripts/
 * and test/ (a name only a test imports counts as used). The few names used
 * by something other than an import (entry points, config files) are listed
 * below with why. The checker is checked on a small sample first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { unusedExports } from '../helpers/export-use.js';
import { sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';

/** `file:name` exported for a reader that does not import it. */
const NOT_IMPORTED: Record<string, string> = {
  'electron/cli/main.ts:main': 'bin/longhaul.js imports the built file by URL',
  'renderer/src/main.ts:default': "index.html's module script is the renderer's entry (vite)",
  'vite.config.ts:default': 'read by vite',
  'vite.preload.config.ts:default': 'read by vite',
};

const SKIP = ['node_modules', 'dist', 'build', 'build-win', 'screenshots', 'public'];

function repoSources(): Map<string, string> {
  const files = ['electron', 'renderer', 'scripts', 'test'].flatMap((d) => sourceFiles(path.join(REPO, d), /\.(ts|svelte)$/, SKIP));
  const rootConfigs = ['vite.config.ts', 'vite.preload.config.ts'].map((f) => path.join(REPO, f));
  return new Map([...files, ...rootConfigs].map((f) => [f, readFileSync(f, 'utf8')]));
}

describe('export use', () => {
  it('the checker finds an export nobody imports, and only that one', () => {
    const files = new Map([
      ['/x/a.ts', 'export function used() {}\nexport const unused = 1;\nexport interface Kept {}\nexport type { Shape } from "./c.js";'],
      ['/x/b.ts', "import { used } from './a.js';\nimport type { Kept } from './a.js';\nexport default 1;\nexport { used };"],
      ['/x/c.ts', 'export type Shape = 1;\nexport const viaStar = 2;\nexport const viaDynamic = 3;'],
      ['/x/d.ts', "export * from './c.js';\nconst m = await import('./e.js');\nexport type T = import('./f.js').F;"],
      ['/x/e.ts', 'export const anything = 1;'],
      ['/x/f.ts', 'export type F = 1;\nexport type G = 2;'],
      ['/x/g.svelte', '<script lang="ts">\n  import { Shape } from "./c.js";\n</script>\n<p>{1}</p>'],
    ]);
    const found = unusedExports(files).map((e) => `${path.basename(e.file)}:${e.name}:${e.line}`);
    assert.deepEqual(found.sort(), ['a.ts:Shape:4', 'a.ts:unused:2', 'b.ts:default:3', 'b.ts:used:4', 'd.ts:T:3', 'f.ts:G:2']);
  });

  it('every exported name in electron/, renderer/, scripts/ and test/ is imported by another file', () => {
    const unused = unusedExports(repoSources())
      .map((e) => ({ ...e, key: `${path.relative(REPO, e.file)}:${e.name}` }))
      .filter((e) => !(e.key in NOT_IMPORTED));
    assert.deepEqual(
      unused.map((e) => `${path.relative(REPO, e.file)}:${e.line} ${e.name}`),
      [],
      'exported but imported by no other file: drop the `export` (or, for a reader that does not import, list it in NOT_IMPORTED with why)',
    );
  });

  it('every NOT_IMPORTED entry still names an export', () => {
    const all = new Set(unusedExports(repoSources()).map((e) => `${path.relative(REPO, e.file)}:${e.name}`));
    assert.deepEqual(
      Object.keys(NOT_IMPORTED).filter((k) => !all.has(k)),
      [],
      'stale entries',
    );
  });
});
