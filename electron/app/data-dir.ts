/**
 * Where the app keeps result files (History): the rule is `resultsDir` in
 * util/app-paths.ts, shared with the CLI and browser mode. This wrapper keeps
 * the desktop app's call (`resultsDir(process.env, userData)`) as it was.
 */
import { currentHost, resultsDir as resultsDirOf } from '../util/app-paths.js';

/** The folder holding result JSON files, for this process with `env`. */
export function resultsDir(env: NodeJS.ProcessEnv = process.env, electronUserData?: string): string {
  return resultsDirOf({ ...currentHost(), env }, electronUserData);
}
