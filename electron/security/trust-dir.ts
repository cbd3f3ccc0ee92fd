/**
 * Where an installation keeps its identity and its peers. `$LONGHAUL_TRUST_DIR`
 * wins (tests and scripts); else the Electron main process passes its
 * `userData` folder; else the XDG data folder (`~/.local/share/longhaul/trust`).
 * Not under `$LONGHAUL_DATA_DIR`: that folder holds result files, often shared.
 */
import os from 'node:os';
import path from 'node:path';

export function trustDir(env: NodeJS.ProcessEnv = process.env, electronUserData?: string): string {
  if (env.LONGHAUL_TRUST_DIR) return path.resolve(env.LONGHAUL_TRUST_DIR);
  if (electronUserData) return path.join(electronUserData, 'trust');
  const xdg = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(xdg, 'longhaul', 'trust');
}
