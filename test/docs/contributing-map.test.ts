/**
 * docs/contributing.md's "Where to change X" map answers each question with a path and, in
 * parentheses after it, the symbol there that holds the rule. Every path must exist and every symbol
 * must be defined in the file named before it (a top-level const, function, class, interface, type
 * or enum in TypeScript; a struct, class or function in C++), and every row names at least one: a
 * rename or a move that leaves the map behind fails here instead of sending the next contributor to
 * the wrong file. The checkers are first shown to catch a bad path, a symbol in the wrong file and a
 * row with no symbol.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from '../helpers/processes.js';

const MAP_HEADING = '## Where to change X';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The text of the map section: from its heading to the next `## ` heading. */
function mapSection(markdown: string): string {
  const start = markdown.indexOf(MAP_HEADING);
  assert.notEqual(start, -1, `docs/contributing.md has no "${MAP_HEADING}" section`);
  const end = markdown.indexOf('\n## ', start + MAP_HEADING.length);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** A path span: holds a '/' and no spaces, '=' or '*'. */
const isPath = (span: string): boolean => span.includes('/') && !/[\s=*]/.test(span);

/** The repository paths a section names. */
function namedPaths(section: string): string[] {
  return [...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '').filter(isPath);
}

/** Each path span followed by ` (…)`, with the identifiers in code spans inside those parentheses. */
function pathSymbols(text: string): { file: string; symbols: string[] }[] {
  const out: { file: string; symbols: string[] }[] = [];
  for (const m of text.matchAll(/`([^`\n]+)` \(/g)) {
    const file = m[1] ?? '';
    if (!isPath(file)) continue;
    let depth = 1;
    let i = (m.index ?? 0) + m[0].length;
    const from = i;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
    const inside = text.slice(from, i - 1);
    const symbols = [...inside.matchAll(/`([^`\n]+)`/g)].map((s) => s[1] ?? '').filter((s) => IDENTIFIER.test(s));
    if (symbols.length) out.push({ file, symbols });
  }
  return out;
}

/** Whether `file` defines `name` at its top level. */
function defines(file: string, name: string): boolean {
  const text = readFileSync(file, 'utf8');
  const n = name.replace(/\$/g, '\\$');
  const patterns = /\.(h|cc|cpp)$/.test(file)
    ? [new RegExp(`^(struct|class)\\s+${n}\\b`, 'm'), new RegExp(`^[A-Za-z_][\\w:<>,\\s*&]*\\s\\**${n}\\s*\\(`, 'm')]
    : [new RegExp(`^(export\\s+)?(declare\\s+)?(const|let|var|async\\s+function|function|abstract\\s+class|class|interface|type|enum)\\s+${n}\\b`, 'm')];
  return patterns.some((p) => p.test(text));
}

/** The problems of a map section under `repo`: missing paths, symbols not defined where named, rows naming no symbol. */
function problems(section: string, repo: string): string[] {
  const out = namedPaths(section)
    .filter((p) => !existsSync(path.join(repo, p)))
    .map((p) => `no such path: ${p}`);
  for (const { file, symbols } of pathSymbols(section)) {
    const full = path.join(repo, file);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) out.push(`${file} is a folder: name a file for ${symbols.join(', ')}`);
    else for (const s of symbols) if (!defines(full, s)) out.push(`${s} is not defined in ${file}`);
  }
  for (const row of section.split('\n').filter((l) => l.startsWith('| ') && !/^\| (to change|---)/.test(l)))
    if (pathSymbols(row).length === 0) out.push(`a row names no symbol: ${row.slice(0, 60)}`);
  return out;
}

describe("contributing.md's map", () => {
  it('the checker flags a missing path, a symbol not in the file named before it, and a row naming no symbol', () => {
    const sample = [
      MAP_HEADING,
      '| to change | open |',
      '| --- | --- |',
      '| a CSV column | `electron/report/csv-report.ts` (`CSV_COLUMNS`: each column) |',
      '| a verdict word | `electron/report/csv-report.ts` (`VERDICT_WORDS`, defined elsewhere) |',
      '| a stage | `electron/proxy/stages/` and `electron/proxy/no-such-stage.ts` |',
      '| a TCP_INFO field | `native/src/lh_socket.h` (`TcpInfo`) and `native/src/owned_conn.cc` (`AcceptStream`) |',
      '| env | `electron/native/data-path.ts` (`resolveDataPath`; `LONGHAUL_DATA_CONN=owned`) |',
      '## Next section',
      '`electron/not/in/the/map.ts`',
    ].join('\n');
    assert.deepEqual(problems(mapSection(sample), REPO), [
      'no such path: electron/proxy/no-such-stage.ts',
      'VERDICT_WORDS is not defined in electron/report/csv-report.ts',
      'a row names no symbol: | a stage | `electron/proxy/stages/` and `electron/proxy/no-',
    ]);
  });

  it('every path exists, every symbol is defined in the file named before it, every row names one', () => {
    const section = mapSection(readFileSync(path.join(REPO, 'docs', 'contributing.md'), 'utf8'));
    assert.ok(namedPaths(section).length >= 10, 'the map names its files');
    assert.ok(pathSymbols(section).length >= 15, 'the map names its symbols');
    assert.deepEqual(problems(section, REPO), []);
  });
});
