/**
 * electron-builder's own code for what packaging does before any download:
 * load the config (electron-builder.yml), validate it against electron-builder's
 * JSON schema and package.json checks, and match files with the same
 * `FileMatcher` (and default exclusions) the packager uses to fill app.asar.
 *
 * These functions live in app-builder-lib, electron-builder's engine; it is
 * resolved from electron-builder's own location so the two versions always agree.
 * Nothing here touches the network.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The parts of an electron-builder configuration this project reads. */
export interface BuilderConfig {
  appId?: string;
  productName?: string;
  electronVersion?: string;
  directories?: { buildResources?: string; output?: string };
  files?: unknown;
  asarUnpack?: unknown;
  [key: string]: unknown;
}

/** Answers "is this project-relative path in the package?" as electron-builder would. */
export type PathFilter = (relPath: string, isDirectory: boolean) => boolean;

type Filter = (file: string, stat: { isDirectory(): boolean }) => boolean;
interface Matcher {
  from: string;
  createFilter(): Filter;
}
interface ConfigModule {
  getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, debugLogger: DebugLogger): Promise<void>;
}
interface MetadataModule {
  readPackageJson(file: string): Promise<Record<string, unknown>>;
  checkMetadata(metadata: unknown, devMetadata: unknown, appPackageFile: string, devAppPackageFile: string): void;
}
interface FileMatcherModule {
  getMainFileMatchers(
    appDir: string,
    destination: string,
    expand: (s: string) => string,
    platformOptions: object,
    platformPackager: object,
    outDir: string,
    isElectronCompile: boolean,
  ): Matcher[];
  getFileMatchers(config: BuilderConfig, name: string, destination: string, options: object): Matcher[] | null;
}
interface DebugLogger {
  isEnabled: boolean;
  add(key: string, value: unknown): void;
}

const libRequire = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const lib = {
  config: (): ConfigModule => libRequire('app-builder-lib/out/util/config/config') as ConfigModule,
  metadata: (): MetadataModule => libRequire('app-builder-lib/out/util/packageMetadata') as MetadataModule,
  files: (): FileMatcherModule => libRequire('app-builder-lib/out/fileMatcher') as FileMatcherModule,
};

const QUIET_LOGGER: DebugLogger = { isEnabled: false, add: () => undefined };

/** Resolves what app-builder-lib itself depends on (its ajv, its logger). */
const appLibRequire = createRequire(libRequire.resolve('app-builder-lib/out/util/config/config'));

// electron-builder logs to stdout; keep stdout for our own results (and for node:test's protocol).
(appLibRequire('builder-util/out/log') as { log: { stream: NodeJS.WritableStream } }).log.stream = process.stderr;

/** electron-builder's version (the one whose schema validates the config). */
export function builderVersion(): string {
  return (libRequire('app-builder-lib/package.json') as { version: string }).version;
}

/** The configuration exactly as electron-builder loads it (electron-builder.yml, `extends` resolved). */
export async function loadBuilderConfig(projectDir: string): Promise<BuilderConfig> {
  return lib.config().getConfig(projectDir, null, null);
}

/**
 * electron-builder's checks that run before it downloads anything: the config
 * against its JSON schema, then package.json (name, version, no Electron in
 * `dependencies`). Throws electron-builder's own error, naming the bad option.
 */
export async function validateBuilderConfig(projectDir: string, config: BuilderConfig): Promise<void> {
  try {
    await lib.config().validateConfiguration(config, QUIET_LOGGER);
  } catch (err) {
    // electron-builder collapses "unknown property" into "should be one of these: null"; name it.
    const unknown = unknownOptions(config);
    if (unknown.length > 0 && err instanceof Error) err.message += `\n - unknown option${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`;
    throw err;
  }
  const pkgFile = path.join(projectDir, 'package.json');
  const pkg = await lib.metadata().readPackageJson(pkgFile);
  lib.metadata().checkMetadata(pkg, pkg, pkgFile, pkgFile);
}

/** Options electron-builder's schema does not know ("nsis.oneClik"), from the same schema and ajv it uses. */
function unknownOptions(config: BuilderConfig): string[] {
  type Ajv = new (o: object) => {
    compile(s: object): ((d: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; params: { additionalProperty?: string } }[] };
  };
  const ajvModule = appLibRequire('ajv') as { default: Ajv };
  const validate = new ajvModule.default({ allErrors: true, strict: false }).compile(appLibRequire('app-builder-lib/scheme.json') as object);
  validate(structuredClone(config));
  const names = (validate.errors ?? [])
    .filter((e) => e.keyword === 'additionalProperties' && e.params.additionalProperty)
    .map((e) => [...e.instancePath.split('/').filter(Boolean), e.params.additionalProperty].join('.'));
  return [...new Set(names)];
}

/** The `files` patterns, whichever form the config uses (getConfig turns a list into `[{ filter }]`). */
export function filePatterns(config: BuilderConfig): string[] {
  const f = config.files;
  if (Array.isArray(f) && f.length === 1 && typeof f[0] === 'object' && f[0] !== null && Array.isArray((f[0] as { filter?: unknown }).filter)) {
    return (f[0] as { filter: string[] }).filter;
  }
  if (Array.isArray(f) && f.every((x) => typeof x === 'string')) return f as string[];
  throw new Error('electron-builder.yml "files" has a form this check does not read (a list of patterns expected)');
}

function outDirOf(projectDir: string, config: BuilderConfig): string {
  return path.resolve(projectDir, config.directories?.output ?? 'dist');
}

function toPathFilter(projectDir: string, filter: Filter): PathFilter {
  return (relPath, isDirectory) => filter(path.join(projectDir, relPath), { isDirectory: () => isDirectory });
}

/**
 * The filter electron-builder applies to the app directory for `files`,
 * including its default exclusions (build resources, output dir, *.d.ts, …).
 * Copies the config first: the matcher appends its defaults to the pattern list.
 */
export function filesFilter(dir: string, config: BuilderConfig): PathFilter {
  const projectDir = path.resolve(dir);
  const copy = structuredClone(config);
  const info = {
    projectDir,
    buildResourcesDir: copy.directories?.buildResources ?? 'build',
    config: copy,
    isPrepackedAppAsar: false,
    debugLogger: QUIET_LOGGER,
  };
  const outDir = outDirOf(projectDir, copy);
  const matchers = lib.files().getMainFileMatchers(projectDir, '/app', (s) => s, {}, { info }, outDir, false);
  const own = matchers.filter((m) => m.from === projectDir);
  const [mine] = own;
  if (own.length !== 1 || !mine) throw new Error(`expected one files matcher rooted at the project, got ${own.length}`);
  return toPathFilter(projectDir, mine.createFilter());
}

/** The filter for `asarUnpack`: the files electron-builder leaves outside app.asar. Null when none. */
export function asarUnpackFilter(dir: string, config: BuilderConfig): PathFilter | null {
  const projectDir = path.resolve(dir);
  const matchers = lib.files().getFileMatchers(config, 'asarUnpack', '/app', {
    macroExpander: (s: string) => s,
    customBuildOptions: {},
    globalOutDir: outDirOf(projectDir, config),
    defaultSrc: projectDir,
  });
  const first = matchers?.[0];
  return first ? toPathFilter(projectDir, first.createFilter()) : null;
}
