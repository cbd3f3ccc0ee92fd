/**
 * Builds the delay helper (test/wan/nfq-delay.c) with gcc on first use and
 * caches the binary under node_modules/.cache/longhaul-wan/, keyed by a hash of
 * the source, so an edited source is rebuilt and a binary is never committed.
 *
 * By hand: `npm run build && node dist/test/wan/helper-build.js` prints the path.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCmd } from './run-cmd.js';

/** The repository root: this file runs from dist/test/wan/ (compiled) */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The C source, always read from the source tree (tsc does not copy it to dist/). */
const HELPER_SOURCE = join(REPO_ROOT, 'test', 'wan', 'nfq-delay.c');

const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'longhaul-wan');
const GCC_TIMEOUT_MS = 60_000;

let building: Promise<string> | null = null;

/**
 * Path of a built delay helper for the current source, compiling it if needed.
 * Rejects with LH_ERR_IO (gcc's own message) when gcc or libnetfilter-queue-dev
 * is missing.
 */
export function ensureDelayHelper(): Promise<string> {
  building ??= build().catch((err: unknown) => {
    building = null;
    throw err;
  });
  return building;
}

async function build(): Promise<string> {
  const source = readFileSync(HELPER_SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const bin = join(CACHE_DIR, `nfq-delay-${hash}`);
  if (existsSync(bin)) return bin;
  mkdirSync(CACHE_DIR, { recursive: true });
  // Build to a private name, then rename: parallel test files never run a half-written binary.
  const tmp = `${bin}.${process.pid}.tmp`;
  await runCmd('gcc', ['-O2', '-Wall', '-Wextra', '-Werror', '-o', tmp, HELPER_SOURCE, '-lnetfilter_queue', '-lnfnetlink'], GCC_TIMEOUT_MS);
  renameSync(tmp, bin);
  return bin;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureDelayHelper().then(
    (p) => process.stdout.write(`${p}\n`),
    (err: unknown) => {
      process.stderr.write(`cannot build the WAN delay helper: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
