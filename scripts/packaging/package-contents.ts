/**
 * Does the package contain everything the app loads? Compares electron-builder's
 * own `files`/`asarUnpack` matching (builder-api.ts) with the app's load graph
 * (app-load-graph.ts) from package.json `main`, plus the data worker, and the
 * native addon for every platform-arch the config builds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadGraph, type LoadGraph } from './app-load-graph.js';
import { asarUnpackFilter, filesFilter, type BuilderConfig, type PathFilter } from './builder-api.js';
import { prebuildPath } from './prebuild-native.js';

/** One platform-arch the configuration produces installers for. */
interface BuildTarget {
  platform: NodeJS.Platform;
  arch: string;
}

/** The verdict, with the evidence. Every list empty = the package is complete. */
interface ContentsReport {
  graph: LoadGraph;
  targets: BuildTarget[];
  /** Files the app loads that `files` leaves out. */
  notPackaged: string[];
  /** Native prebuilds (one per target) that `files` leaves out or `asarUnpack` keeps inside app.asar. */
  nativeProblems: string[];
  /** Bare imports that are not production dependencies (electron-builder packs only those). */
  undeclaredPackages: string[];
  /** Files that must stay out (wrong-arch native build, sources, tests) but are selected. */
  wronglyPackaged: string[];
}

const PLATFORM_KEYS: Record<string, NodeJS.Platform> = { win: 'win32', mac: 'darwin', linux: 'linux' };

/** Platform-arch pairs from the `win`/`mac`/`linux` target lists (x64 where a target names no arch). */
export function buildTargets(config: BuilderConfig): BuildTarget[] {
  const seen = new Map<string, BuildTarget>();
  for (const [key, platform] of Object.entries(PLATFORM_KEYS)) {
    const section = config[key] as { target?: unknown } | undefined;
    const list = section?.target === undefined ? [] : Array.isArray(section.target) ? section.target : [section.target];
    for (const t of list) {
      const arches = typeof t === 'object' && t !== null && 'arch' in t ? ([] as string[]).concat((t as { arch: string | string[] }).arch) : ['x64'];
      for (const arch of arches) seen.set(`${platform}-${arch}`, { platform, arch });
    }
  }
  return [...seen.values()];
}

/** True when electron-builder would copy `relPath`: it and every folder above it pass the filter. */
function selects(filter: PathFilter, relPath: string, isDirectory = false): boolean {
  const parts = relPath.split('/');
  for (let i = 1; i < parts.length; i++) if (!filter(parts.slice(0, i).join('/'), true)) return false;
  return filter(relPath, isDirectory);
}

/** What must never be in the package, whatever the globs say. */
const MUST_STAY_OUT = [
  'native/build/Release/longhaul_native.node',
  'native/src/addon.cc',
  'dist/test/engine/controller.test.js',
  'electron/main.ts',
  'build/installer.nsh',
];

/** Checks the built project in `projectDir` (run `npm run build` first) against `config`. */
export function checkPackageContents(projectDir: string, config: BuilderConfig): ContentsReport {
  const pkg = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as { main: string; dependencies?: Record<string, string> };
  const graph = loadGraph(projectDir, pkg.main);
  const files = filesFilter(projectDir, config);
  const unpack = asarUnpackFilter(projectDir, config);
  const targets = buildTargets(config);

  const notPackaged = [...graph.files.filter((f) => !selects(files, f)), ...graph.directories.filter((d) => !selects(files, d, true))];
  const nativeProblems: string[] = [];
  for (const t of targets) {
    const p = prebuildPath(t.platform, t.arch);
    if (!selects(files, p)) nativeProblems.push(`${p} is not selected by files`);
    if (!unpack || !selects(unpack, p)) nativeProblems.push(`${p} is not unpacked from app.asar (asarUnpack)`);
  }
  const deps = new Set(Object.keys(pkg.dependencies ?? {}));
  // 'electron' is the runtime itself, provided by the packaged app, never a module in it.
  const undeclaredPackages = graph.packages.filter((p) => p !== 'electron' && !deps.has(p));
  const wronglyPackaged = MUST_STAY_OUT.filter((f) => selects(files, f));
  return { graph, targets, notPackaged, nativeProblems, undeclaredPackages, wronglyPackaged };
}

/** The report as lines a person can act on; empty when all is well. */
export function contentsProblems(r: ContentsReport): string[] {
  return [
    ...r.graph.missing.map((m) => `the app references a file that is not built: ${m} (run npm run build)`),
    ...r.notPackaged.map((f) => `the app loads ${f}, but electron-builder.yml "files" leaves it out`),
    ...r.nativeProblems,
    ...r.undeclaredPackages.map((p) => `the app imports "${p}", which is not in package.json "dependencies" (it would be missing from the package)`),
    ...r.wronglyPackaged.map((f) => `${f} would be packaged but must not be`),
  ];
}
