/**
 * Whether this machine can run the local NSIS tests (Debian's makensis and 7za),
 * as a node:test `skip` value. A missing tool skips them on a developer's machine
 * and fails them in the project's CI (CI=true), where scripts/setup-and-test.sh
 * is meant to have installed them. GitHub's runners (release.yml) skip them: there
 * `npm run dist:win` builds the installer with electron-builder's own NSIS.
 */
import assert from 'node:assert/strict';
import { findLocalTools, type LocalTools } from '../../scripts/packaging/local-nsis.js';

const found = process.platform === 'linux' ? findLocalTools() : null;

function skipReason(): string | false {
  if (process.platform !== 'linux') return "the local NSIS build uses Debian's makensis (Linux)";
  if (process.env.GITHUB_ACTIONS === 'true') return "on GitHub's runners the release workflow builds the installer with electron-builder's own NSIS";
  if (found && 'missing' in found && process.env.CI !== 'true') return `missing Debian packages: ${found.missing.join(', ')}`;
  return false;
}

/** `skip` option for the local NSIS tests. */
export const skipWithoutNsisTools = skipReason();

/** The tools, or a failed assertion naming the missing packages (CI=true). */
export function requireNsisTools(): LocalTools {
  assert.ok(found && !('missing' in found), `missing Debian packages: ${found && 'missing' in found ? found.missing.join(', ') : 'not Linux'}`);
  return found;
}
