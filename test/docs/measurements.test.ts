/**
 * A threshold's evidence lives in docs/measurements.md, one row per measurement with its anchor,
 * and the comment beside the constant links it (`docs/measurements.md#id`). Every link in the code
 * must land on a row, and every row must be linked from the code or say where it is used: a row
 * renamed, or a comment pointing at a measurement that was never written down, fails here. The
 * checker is first shown to catch a dangling link and an orphan row.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from '../helpers/processes.js';

const LINK = /docs\/measurements\.md#([a-z0-9-]+)((?:, #[a-z0-9-]+)*)/g;
const ANCHOR = /<a id="([a-z0-9-]+)"><\/a>/g;

/** Every file under `dir` ending in one of `exts`. */
function filesUnder(dir: string, exts: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, exts));
    else if (exts.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

/** The anchors a source text links: `docs/measurements.md#a` and any `, #b` after it. */
function linkedAnchors(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(LINK)) {
    ids.push(m[1] as string);
    for (const more of (m[2] ?? '').matchAll(/#([a-z0-9-]+)/g)) ids.push(more[1] as string);
  }
  return ids;
}

/** Links that land on no row, and rows no code links. */
function check(doc: string, sources: Map<string, string>): { dangling: string[]; orphans: string[] } {
  const anchors = new Set([...doc.matchAll(ANCHOR)].map((m) => m[1] as string));
  const linked = new Set<string>();
  const dangling: string[] = [];
  for (const [file, text] of sources) {
    for (const id of linkedAnchors(text)) {
      linked.add(id);
      if (!anchors.has(id)) dangling.push(`${file} → #${id}`);
    }
  }
  return { dangling, orphans: [...anchors].filter((a) => !linked.has(a)) };
}

describe('docs/measurements.md', () => {
  it('catches a link to no row and a row nothing links', () => {
    const doc = '| <a id="kept"></a>kept | … |\n| <a id="orphan"></a>orphan | … |';
    const r = check(doc, new Map([['a.ts', '// why: docs/measurements.md#kept, #gone']]));
    assert.deepEqual(r, { dangling: ['a.ts → #gone'], orphans: ['orphan'] });
  });

  it('has a row for every link in the code, and every row is linked from the code', () => {
    const doc = readFileSync(path.join(REPO, 'docs/measurements.md'), 'utf8');
    const files = [...filesUnder(path.join(REPO, 'electron'), ['.ts']), ...filesUnder(path.join(REPO, 'native/src'), ['.cc', '.h'])];
    const sources = new Map(files.map((f) => [path.relative(REPO, f), readFileSync(f, 'utf8')]));
    const r = check(doc, sources);
    assert.deepEqual(r.dangling, [], 'links with no row in docs/measurements.md');
    assert.deepEqual(r.orphans, [], 'rows no code comment links');
    assert.ok(linkedAnchors([...sources.values()].join('\n')).length >= 10, 'the code links its evidence');
  });
});
