/** What the import-boundary tests share: the source files of a tree, and each file's import specifiers. */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const IMPORT = /(?:^|\n)\s*import\s[^'"]*?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*export\s[^'"]*?from\s+['"]([^'"]+)['"]/g;

/** Every import, dynamic import and re-export specifier in `text`, in order (type imports included). */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** Files under `dir` whose names match `ext`, skipping folders named in `skip`. */
export function sourceFiles(dir: string, ext: RegExp, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    if (statSync(p).isDirectory()) return skip.includes(n) ? [] : sourceFiles(p, ext, skip);
    return ext.test(n) ? [p] : [];
  });
}
