// The addon build's stamp: what a build in native/build/Release was made from, so the
// install step can leave an up-to-date build alone. `npx longhaul` right after `npm ci`
// reinstalls the checkout and runs the install script again; `node-gyp rebuild` starts by
// deleting native/build, so a run started meanwhile found no addon and silently took the
// Node path. Content hashes, not mtimes: a fresh clone gives every file the same mtime.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the stamp lives, beside the build it describes (node-gyp rebuild deletes both). */
export function stampPath(nativeDir) {
  return join(nativeDir, 'build', 'longhaul-build.json');
}

/** The addon binary node-gyp-build loads. */
export function addonPath(nativeDir) {
  return join(nativeDir, 'build', 'Release', 'longhaul_native.node');
}

/** What a build depends on: every source and header, binding.gyp, this platform and the N-API headers' version. */
export function sourceDigest(nativeDir, nodeAddonApiVersion) {
  const h = createHash('sha256');
  h.update(`${process.platform}-${process.arch}\0${nodeAddonApiVersion}\0`);
  const src = join(nativeDir, 'src');
  const files = [
    'binding.gyp',
    ...readdirSync(src)
      .sort()
      .map((f) => join('src', f)),
  ];
  for (const f of files) {
    h.update(f)
      .update('\0')
      .update(readFileSync(join(nativeDir, f)))
      .update('\0');
  }
  return h.digest('hex');
}

/** Why the build must run, or null when the build there is from these sources (the caller still checks it loads). */
export function staleReason(nativeDir, digest) {
  if (!existsSync(addonPath(nativeDir))) return 'no build yet';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath(nativeDir), 'utf8'));
  } catch {
    return 'the build has no stamp';
  }
  return stamp?.digest === digest ? null : 'the sources changed since the last build';
}

export function writeStamp(nativeDir, digest) {
  writeFileSync(stampPath(nativeDir), `${JSON.stringify({ digest, builtAt: new Date().toISOString() })}\n`);
}
