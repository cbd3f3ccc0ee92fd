/**
 * The import libraries the mingw-w64 build links Node-API through, made from the
 * export table of the pinned node.exe (node.lib does not exist for mingw):
 *
 * - node_api_delay.a: a *delay-load* import library of "node.exe". The addon links
 *   this one, with native/src/win_delay_load.cc binding its entries to the host
 *   executable, so it loads in node.exe and in Longhaul.exe (Electron) alike.
 * - node_api.a: the plain import library of "node.exe", which loads only in a process
 *   whose executable is named node.exe. Nothing ships it; the lane's tests link the
 *   addon against it once to show that the hook is what makes Longhaul.exe work.
 *
 * Only napi_* and node_api_* are in them: the addon is Node-API only (binding.gyp), so
 * one binary serves Node and Electron. A source that reaches for anything else (libuv,
 * V8) fails to link here, not in a user's Electron.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MINGW } from './lane.js';

/** The Node-API names in `objdump -p` output of an executable (its export table). */
export function nodeApiExports(objdumpText: string): string[] {
  const names = new Set<string>();
  // Lines of the "[Ordinal/Name Pointer] Table": "\t[ 8753] napi_acquire_threadsafe_function".
  for (const m of objdumpText.matchAll(/^\s*\[\s*\d+\]\s+((?:napi|node_api)_\w+)\s*$/gm)) if (m[1] !== undefined) names.add(m[1]);
  return [...names].sort();
}

/** A module-definition file naming `dll` as the library and `names` as its exports. */
export function defFile(dll: string, names: string[]): string {
  return [`LIBRARY ${dll}`, 'EXPORTS', ...names.map((n) => `  ${n}`), ''].join('\n');
}

function tool(cmd: string, args: string[], timeoutMs = 120_000): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: timeoutMs });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${r.stderr.trim().slice(-800)}`);
  return r.stdout;
}

interface NodeApiImportLibs {
  /** The delay-load import library the addon links. */
  delayLib: string;
  /** dlltool's descriptor symbol in it (__DELAY_IMPORT_DESCRIPTOR_<file>), for win_delay_load.cc. */
  descriptor: string;
  /** The plain import library (tests only). */
  plainLib: string;
  /** How many Node-API functions node.exe exports. */
  count: number;
}

/** Writes node_api.def and both import libraries into `workDir`. Throws on a tool failure. */
export function makeNodeApiImportLibs(nodeExe: string, workDir: string): NodeApiImportLibs {
  const names = nodeApiExports(tool(MINGW.objdump, ['-p', nodeExe]));
  // Node 22 exports 159; far fewer means objdump's layout changed and the parse missed lines.
  if (names.length < 100) throw new Error(`found only ${names.length} Node-API exports in ${nodeExe}; is it node.exe?`);
  const def = path.join(workDir, 'node_api.def');
  const text = defFile('node.exe', names);
  const delayLib = path.join(workDir, 'node_api_delay.a');
  const plainLib = path.join(workDir, 'node_api.a');
  // Same exports as last time: the libraries on disk are still right (and objects linked with them need no relink).
  const same = existsSync(def) && readFileSync(def, 'utf8') === text && existsSync(delayLib) && existsSync(plainLib);
  if (!same) {
    writeFileSync(def, text);
    tool(MINGW.dlltool, ['-m', 'i386:x86-64', '-d', def, '-y', delayLib, '-l', plainLib]);
  }
  const descriptor = /\b(__DELAY_IMPORT_DESCRIPTOR_\w+)\b/.exec(tool(MINGW.nm, [delayLib]))?.[1];
  if (!descriptor) throw new Error(`${delayLib} has no __DELAY_IMPORT_DESCRIPTOR_ symbol (dlltool -y changed?)`);
  return { delayLib, descriptor, plainLib, count: names.length };
}
