/**
 * The packaged desktop app, driven by Playwright's Electron support. Runs
 * where the Electron binary is installed; reports clearly why it is skipped
 * otherwise (here: Electron 45 needs Node 22 and its binary download is blocked).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { _electron } from 'playwright-core';
import { REPO } from '../helpers/processes.js';

function electronBinary(): { path: string } | { missing: string } {
  try {
    const p = createRequire(import.meta.url)('electron') as unknown;
    if (typeof p === 'string' && existsSync(p)) return { path: p };
    return { missing: `the electron package is installed but its binary is not (${String(p)})` };
  } catch {
    return { missing: 'the electron package is not installed (optional dependency: Electron 45 needs Node >= 22.12, and its binary download needs internet)' };
  }
}

const bin = electronBinary();

describe('desktop app (Electron)', { timeout: 60_000 }, () => {
  it(
    'opens the Start screen with a sandboxed, isolated page',
    { skip: 'missing' in bin ? `skipped: no Electron binary here: ${bin.missing}` : false },
    async () => {
      if (!('path' in bin)) return;
      const app = await _electron.launch({ executablePath: bin.path, args: [REPO], cwd: REPO, timeout: 30_000 });
      try {
        const page = await app.firstWindow();
        await page.getByText('Run a test from this PC').waitFor();
        assert.equal(await page.evaluate('typeof window.longhaul.startRun'), 'function');
        assert.equal(await page.evaluate('typeof require'), 'undefined');
        assert.equal(await page.evaluate('typeof process'), 'undefined');
        const info = (await page.evaluate('window.longhaul.systemInfo(null)')) as { mode: string };
        assert.equal(info.mode, 'electron');
      } finally {
        await app.close();
      }
    },
  );
});
