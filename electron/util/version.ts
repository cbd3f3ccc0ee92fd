/** The software version, read once from package.json (single source of truth). */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const SOFTWARE_VERSION = readVersion();
export const SOFTWARE = `longhaul/${SOFTWARE_VERSION}`;
