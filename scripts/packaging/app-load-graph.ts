/**
 * What the packaged app loads, found by reading the built files rather than
 * listing them by hand: from package.json `main`, every relative `import`,
 * `export … from`, `import()`, `require()` and `new URL('…', import.meta.url)`
 * (how main finds the preload and the page, and the engine its data worker),
 * and every `src`/`href` of an HTML page. A URL that ends in `/` names a
 * directory (the native addon's, the browser-mode UI's) and is reported as such.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** Everything reachable from the app's entry point. All paths are project-relative, with `/`. */
export interface LoadGraph {
  /** Files the app reads or imports, entry point first. */
  files: string[];
  /** Directories referenced as a whole (`new URL('../native/', …)`). */
  directories: string[];
  /** Package names imported by bare specifier (excluding node: built-ins). */
  packages: string[];
  /** References that point at nothing on disk: `from → target`. */
  missing: string[];
}

const JS_REFS = [
  /\bimport\s[^'"]*?from\s*['"]([^'"]+)['"]/g,
  /\bexport\s[^'"]*?from\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
];
const HTML_REFS = [/\b(?:src|href)\s*=\s*["']([^"'#?]+)["']/g];
const BUILTINS = new Set(builtinModules);

function refsIn(text: string, patterns: RegExp[]): string[] {
  const out: string[] = [];
  for (const re of patterns) for (const m of text.matchAll(re)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? spec);
}

const rel = (root: string, abs: string): string => path.relative(root, abs).split(path.sep).join('/');

/** Walks the load graph from `entry` (project-relative). Reads only files under `projectDir`. */
export function loadGraph(projectDir: string, entry: string): LoadGraph {
  const files: string[] = [];
  const directories = new Set<string>();
  const packages = new Set<string>();
  const missing: string[] = [];
  const queue = [path.resolve(projectDir, entry)];
  const seen = new Set<string>();
  for (let abs = queue.shift(); abs !== undefined; abs = queue.shift()) {
    if (seen.has(abs)) continue;
    seen.add(abs);
    files.push(rel(projectDir, abs));
    const isHtml = abs.endsWith('.html');
    if (!isHtml && !/\.(c|m)?js$/.test(abs)) continue; // css, svg, json: leaves
    const text = readFileSync(abs, 'utf8');
    for (const ref of refsIn(text, isHtml ? HTML_REFS : JS_REFS)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !ref.startsWith('node:')) continue; // http:, data:, ws:
      if (ref.startsWith('node:') || BUILTINS.has(ref)) continue;
      if (!ref.startsWith('.') && !ref.startsWith('/')) {
        packages.add(packageName(ref));
        continue;
      }
      const target = path.resolve(path.dirname(abs), ref);
      if (ref.endsWith('/')) {
        if (existsSync(target) && statSync(target).isDirectory()) directories.add(rel(projectDir, target));
        else missing.push(`${rel(projectDir, abs)} → ${ref}`);
      } else if (existsSync(target) && statSync(target).isFile()) {
        queue.push(target);
      } else {
        missing.push(`${rel(projectDir, abs)} → ${ref}`);
      }
    }
  }
  return { files, directories: [...directories].sort(), packages: [...packages].sort(), missing };
}
