/**
 * Where the app keeps result files (History). One rule for every host:
 * `$LONGHAUL_DATA_DIR` wins; else the Electron main process passes its
 * `userData` folder; else the XDG data folder (`~/.local/share/longhaul`).
 */
import os from 'node:os';
import path from 'node:path';

/** The folder holding result JSON files. */
export function resultsDir(env: NodeJS.ProcessEnv = process.env, electronUserData?: string): string {
  if (env.LONGHAUL_DATA_DIR) return path.resolve(env.LONGHAUL_DATA_DIR);
  if (electronUserData) return path.join(electronUserData, 'results');
  const xdg = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(xdg, 'longhaul', 'results');
}
