/** A fresh temporary folder per test, removed afterwards (also when the test fails). */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';

export function tmpDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'longhaul-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
