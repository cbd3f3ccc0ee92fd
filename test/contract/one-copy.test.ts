/**
 * A rule with one home in contract/ is not copied back elsewhere: the default
 * port, the direction list and its words, the session phases. Code lines only
 * (comments may quote a value). Proved on a bad sample first.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importSpecifiers, sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';

interface Rule {
  what: string;
  home: string;
  copy: RegExp;
}

const RULES: Rule[] = [
  // A bare 5211; `host:5211` in an example text is not a copy of the default.
  { what: 'the default port', home: 'electron/contract/api.ts', copy: /(?<![\w:.])5211(?![\w])/ },
  { what: 'the Direction list', home: 'electron/contract/direction.ts', copy: /'forward'\s*[,|]\s*'reverse'\s*[,|]\s*'bidir'/ },
  { what: 'the session phases', home: 'electron/contract/session-phases.ts', copy: /'hello'\s*[,|]\s*'params'\s*[,|]\s*'streams'/ },
  { what: 'the path direction label', home: 'electron/contract/direction.ts', copy: /controller (?:→|->) responder|responder (?:→|->) controller/ },
];

/**
 * Files that still hold a copy because another change owns them; each entry must still match
 * (the test says when one can go), so the list only shrinks.
 */
const PENDING: Record<string, string[]> = {};

const COMMENT = /^\s*(?:\*|\/\/|\/\*\*?|<!--)/;

/** `file: rule` for every code line of `text` holding a copy of a rule whose home is elsewhere. */
function copies(file: string, text: string): string[] {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    if (COMMENT.test(line)) continue;
    for (const r of RULES) if (file !== r.home && r.copy.test(line)) found.add(`${file}: ${r.what}`);
  }
  return [...found];
}

/** The units and formatters are imported from electron/contract/units.ts only; these files still use the renderer's re-export. */
const RENDERER_UNITS = path.join(REPO, 'renderer', 'src', 'lib', 'units.js');
const PENDING_UNITS_IMPORTERS: string[] = [];

describe('one copy of each contract rule', () => {
  it('finds copies in a bad sample, and not in comments or examples', () => {
    const sample = [
      'const port = app.system?.defaultPort ?? 5211;',
      "const d = z.enum(['forward', 'reverse', 'bidir']);",
      "type P = 'hello' | 'params' | 'streams' | 'start';",
      '<th>controller → responder</th>',
      ' * e.g. lab-pc:5211, a partner',
      "// ['forward', 'reverse', 'bidir'] was here",
      "const example = 'lab-7:5211';",
    ].join('\n');
    assert.deepEqual(copies('x.ts', sample), [
      'x.ts: the default port',
      'x.ts: the Direction list',
      'x.ts: the session phases',
      'x.ts: the path direction label',
    ]);
  });

  it('holds for electron/ and renderer/src/', () => {
    const files = [...sourceFiles(path.join(REPO, 'electron'), /\.ts$/), ...sourceFiles(path.join(REPO, 'renderer', 'src'), /\.(ts|svelte)$/)];
    const found = files.flatMap((f) => copies(path.relative(REPO, f).split(path.sep).join('/'), readFileSync(f, 'utf8')));
    const expectedPending = Object.entries(PENDING).flatMap(([file, whats]) => whats.map((w) => `${file}: ${w}`));
    assert.deepEqual(
      found.filter((c) => !expectedPending.includes(c)),
      [],
      'a copy of a rule whose home is in contract/: import it from there',
    );
    for (const p of expectedPending) assert.ok(found.includes(p), `${p} is gone: remove it from PENDING`);
  });

  it('formatters are imported one way: from electron/contract/units.ts', () => {
    const files = [...sourceFiles(path.join(REPO, 'renderer', 'src'), /\.(ts|svelte)$/), ...sourceFiles(path.join(REPO, 'test'), /\.ts$/)];
    const viaRenderer = files
      .filter((f) => importSpecifiers(readFileSync(f, 'utf8')).some((s) => path.resolve(path.dirname(f), s) === RENDERER_UNITS))
      .map((f) => path.relative(REPO, f).split(path.sep).join('/'))
      .sort();
    assert.deepEqual(
      viaRenderer,
      PENDING_UNITS_IMPORTERS,
      'import the formatters from electron/contract/units.js (and drop a file from the pending list once it does)',
    );
  });
});
