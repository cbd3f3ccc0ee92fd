/**
 * Reads one target of native/binding.gyp as node-gyp would see it on Windows, so the
 * mingw-w64 build compiles the same sources with the same defines as the MSVC build
 * (a source added to binding.gyp is cross-built without touching the lane).
 *
 * Only the part of gyp the addon uses: `sources`, `defines`, `libraries`, `cflags_cc`,
 * `conditions` on OS (== / !=), and `dependencies` whose `direct_dependent_settings`
 * (with their `includes`) add include dirs, defines and flags — node-addon-api's target.
 * Anything else that would change the build (another condition variable) is refused,
 * not guessed.
 */
import { execSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What a target compiles and links with, paths absolute. */
interface GypTarget {
  sources: string[];
  defines: string[];
  includeDirs: string[];
  /** GCC flags from `cflags_cc` (the make generator's; MSVC settings are ignored). */
  cxxFlags: string[];
  /** `ws2_32.lib` → `ws2_32`. */
  libraries: string[];
}

type GypDict = Record<string, unknown>;

/** Parses a .gyp/.gypi file: Python literal syntax (single quotes, comments, trailing commas). */
function parseGypText(text: string): GypDict {
  const code = 'import ast, json, sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))';
  const r = spawnSync('python3', ['-c', code], { input: text, encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw new Error(`python3 is needed to read gyp files: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`not a gyp file: ${r.stderr.trim().split('\n').pop()}`);
  return JSON.parse(r.stdout) as GypDict;
}

/** Evaluates a gyp condition for `os`; only `OS=="x"` and `OS!="x"` are understood. */
export function evalCondition(expr: string, os: string): boolean {
  const m = /^\s*OS\s*(==|!=)\s*["'](\w+)["']\s*$/.exec(expr);
  if (!m) throw new Error(`binding.gyp condition "${expr}" is not understood by the Windows lane (scripts/windows-lane/gyp-target.ts)`);
  return m[1] === '==' ? m[2] === os : m[2] !== os;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** A settings dict with its `conditions` folded in for `os` (recursively). */
export function resolveSettings(d: GypDict, os: string): GypDict {
  const out: GypDict = {};
  const merge = (from: GypDict): void => {
    for (const [k, v] of Object.entries(from)) {
      if (k === 'conditions') continue;
      out[k] = Array.isArray(v) && Array.isArray(out[k]) ? [...(out[k] as unknown[]), ...v] : v;
    }
  };
  merge(d);
  for (const c of (d.conditions as unknown[][] | undefined) ?? []) {
    const [expr, then, otherwise] = c as [string, GypDict, GypDict | undefined];
    const picked = evalCondition(expr, os) ? then : otherwise;
    if (picked) merge(resolveSettings(picked, os));
  }
  return out;
}

/** `<!(cmd)` as gyp expands it: the command's output, run in the gyp file's folder. */
function expand(s: string, dir: string): string {
  const m = /^<!\((.*)\)(.*)$/.exec(s);
  if (m?.[1] === undefined) return s;
  return execSync(m[1], { cwd: dir, encoding: 'utf8', timeout: 30_000 }).trim() + m[2];
}

type ReadGyp = (file: string) => GypDict;

/** Adds a dependency's direct_dependent_settings (and the .gypi files it includes) to `t`. */
function addDependency(dep: string, dir: string, os: string, read: ReadGyp, t: GypTarget): void {
  const expanded = expand(dep, dir);
  const colon = expanded.lastIndexOf(':');
  if (colon < 0) throw new Error(`dependency "${dep}" names no target in another gyp file`);
  const file = path.resolve(dir, expanded.slice(0, colon));
  const name = expanded.slice(colon + 1);
  const gyp = read(file);
  const found = ((gyp.targets as GypDict[] | undefined) ?? []).find((x) => x.target_name === name);
  if (!found) throw new Error(`${file} has no target ${name}`);
  const settings = resolveSettings((found.direct_dependent_settings as GypDict | undefined) ?? {}, os);
  const depDir = path.dirname(file);
  const layers = [settings, ...strings(settings.includes).map((inc) => resolveSettings(read(path.resolve(depDir, inc)), os))];
  for (const s of layers) {
    t.includeDirs.push(...strings(s.include_dirs).map((p) => path.resolve(depDir, p)));
    t.defines.push(...strings(s.defines));
    t.cxxFlags.push(...strings(s.cflags_cc));
  }
}

/** The target `name` of the gyp file `gypFile` for `os` (default: win). */
export function readGypTarget(gypFile: string, name: string, os = 'win', read: ReadGyp = readGypFile): GypTarget {
  const dir = path.dirname(gypFile);
  const gyp = read(gypFile);
  const raw = ((gyp.targets as GypDict[] | undefined) ?? []).find((x) => x.target_name === name);
  if (!raw) throw new Error(`${gypFile} has no target ${name}`);
  const s = resolveSettings(raw, os);
  const t: GypTarget = {
    sources: strings(s.sources).map((p) => path.resolve(dir, p)),
    defines: strings(s.defines),
    includeDirs: strings(s.include_dirs).map((p) => path.resolve(dir, p)),
    cxxFlags: strings(s.cflags_cc),
    libraries: strings(s.libraries).map((l) => l.replace(/^-l/, '').replace(/\.lib$/i, '')),
  };
  for (const dep of strings(s.dependencies)) addDependency(dep, dir, os, read, t);
  return t;
}

/** Reads and parses a gyp file from disk. */
function readGypFile(file: string): GypDict {
  return parseGypText(readFileSync(file, 'utf8'));
}
