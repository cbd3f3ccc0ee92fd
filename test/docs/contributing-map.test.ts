/**
 * docs/contributing.md's "Where to change X" map answers each question with a path: every path
 * it names must exist, so a rename that leaves the map behind fails here instead of sending the
 * next contributor to a file that is gone. The checker is first shown to catch a bad path.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from '../helpers/processes.js';

const MAP_HEADING = '## Where to change X';

/** The text of the map section: from its heading to the next `## ` heading. */
function mapSection(markdown: string): string {
  const start = markdown.indexOf(MAP_HEADING);
  assert.notEqual(start, -1, `docs/contributing.md has no "${MAP_HEADING}" section`);
  const end = markdown.indexOf('\n## ', start + MAP_HEADING.length);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The repository paths a section names: code spans that hold a '/' and no spaces, '=' or '*'. */
function namedPaths(section: string): string[] {
  const spans = [...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  return spans.filter((s) => s.includes('/') && !/[\s=*]/.test(s));
}

/** The named paths that do not exist under `repo`. */
function missingPaths(section: string, repo: string): string[] {
  return namedPaths(section).filter((p) => !existsSync(path.join(repo, p)));
}

describe("contributing.md's map", () => {
  it('the checker flags a path that does not exist, and only that one', () => {
    const sample = [
      MAP_HEADING,
      '| to change | open |',
      '| a CSV column | `electron/report/csv-report.ts` (`CSV_COLUMNS`) |',
      '| a stage | `electron/proxy/stages/` and `electron/proxy/no-such-stage.ts` |',
      '| env | `LONGHAUL_DATA_CONN=owned` |',
      '## Next section',
      '`electron/not/in/the/map.ts`',
    ].join('\n');
    assert.deepEqual(namedPaths(mapSection(sample)), ['electron/report/csv-report.ts', 'electron/proxy/stages/', 'electron/proxy/no-such-stage.ts']);
    assert.deepEqual(missingPaths(mapSection(sample), REPO), ['electron/proxy/no-such-stage.ts']);
  });

  it('names only paths that exist', () => {
    const section = mapSection(readFileSync(path.join(REPO, 'docs', 'contributing.md'), 'utf8'));
    assert.ok(namedPaths(section).length >= 10, 'the map names its files');
    assert.deepEqual(missingPaths(section, REPO), []);
  });
});
