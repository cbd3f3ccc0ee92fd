/**
 * Which NSIS plugin functions a script needs that makensis cannot find, and where.
 *
 * makensis resolves every `Plugin::function` call at compile time against the
 * export tables of the DLLs in its plugin folders (`…/x86-unicode/Plugin.dll`)
 * and stops at the first it cannot resolve:
 *
 *   Plugin not found, cannot call UAC::_
 *   Error in macro _UAC_MakeLL_Cmp on macroline 2
 *   …
 *   !include: error in script: "assistedInstaller.nsh" on line 75
 *
 * so one run names one gap. `probeMissingPlugins` repeats the compile, each
 * time adding a stand-in DLL that exports the function just reported
 * (stub-plugin-dll.ts), until the script compiles or something other than a
 * plugin stops it. Every gap keeps makensis's own account of where it is
 * (macro chain, template file and line). Full compiles, not `-PPO`: in
 * preprocess-only mode makensis resolves plugin calls but ignores
 * `!addplugindir`, so it would never see the stand-ins. Without `-WX`, so that a
 * warning cannot hide the plugins after it; the warnings are reported apart
 * (electron-builder passes `-WX` unless `nsis.warningsAsErrors` is false, and
 * then each of them stops the build as surely as a missing plugin).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stubPluginDll } from './stub-plugin-dll.js';

/** The plugin folder electron-builder's templates compile against (`Unicode true`, x86 stub). */
export const PLUGIN_ARCH = 'x86-unicode';

const GAP = /Plugin (function )?not found, cannot call ([A-Za-z_]\w*)::(\w+)/;
/** Bounds the loop: electron-builder's templates call a few dozen plugin functions at most. */
const MAX_GAPS = 200;

/** One plugin function makensis could not find. */
interface PluginGap {
  /** The DLL makensis looked for, e.g. `UAC.dll`. */
  dll: string;
  function: string;
  /** True when the DLL exists but lacks the function (a different version of the plugin). */
  dllPresent: boolean;
  /** makensis's error chain: macros, then the template file and line (innermost first). */
  where: string[];
}

/** What a script needs besides the plugins makensis has. */
export interface PluginProbe {
  gaps: PluginGap[];
  /** With a stand-in for every gap, the script compiles: plugins are all that is missing. */
  compilesWithStandIns: boolean;
  /** makensis's error when something else stops it (with the stand-ins in place), else null. */
  otherError: string | null;
  /** makensis's warnings once it compiles; fatal when `warningsAreErrors`. */
  warnings: string[];
  /** electron-builder asked for -WX: every warning is an error. */
  warningsAreErrors: boolean;
}

/** makensis's error lines from its output: from the first error to "aborting". */
function errorLines(output: string, from: number): string[] {
  const lines = output.slice(from).split(/\r?\n/);
  const end = lines.findIndex((l) => /aborting creation process/.test(l));
  return lines
    .slice(0, end < 0 ? 20 : end + 1)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The warnings makensis lists at the end of its output ("2 warnings:" then one per line), without duplicates. */
function warningsOf(output: string): string[] {
  const lines = output.split(/\r?\n/);
  const at = lines.findIndex((l) => /^\d+ warnings?:$/.test(l.trim()));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l.trim() === '');
  return [
    ...new Set(
      lines
        .slice(at + 1, end < 0 ? undefined : end)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Lists every plugin function `script` calls that makensis (with `args`, as
 * electron-builder passes them, the last being "-" for stdin) cannot find.
 * `scratch` receives the stand-in DLLs and the trial installer.
 */
export function probeMissingPlugins(makensis: string, args: string[], script: Buffer, scratch: string): PluginProbe {
  const stubDir = path.join(scratch, PLUGIN_ARCH);
  mkdirSync(stubDir, { recursive: true });
  // The trial installer goes to the scratch folder, never to electron-builder's output.
  const warningsAreErrors = args.includes('-WX');
  const options = [
    ...args.slice(0, -1).filter((a) => a !== '-WX'),
    `-X!addplugindir /${PLUGIN_ARCH} "${stubDir}"`,
    `-XOutFile "${path.join(scratch, 'trial-installer.exe')}"`,
    '-',
  ];
  const stubs = new Map<string, Set<string>>();
  const gaps: PluginGap[] = [];
  for (let i = 0; i < MAX_GAPS; i++) {
    const r = spawnSync(makensis, options, { input: script, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const out = `${r.stdout}\n${r.stderr}`;
    if (r.status === 0) return { gaps, compilesWithStandIns: true, otherError: null, warnings: warningsOf(out), warningsAreErrors };
    const m = GAP.exec(out);
    const other = (text: string): PluginProbe => ({ gaps, compilesWithStandIns: false, otherError: text, warnings: warningsOf(out), warningsAreErrors });
    // makensis writes its errors to stderr, the first one first.
    if (!m) return other(r.stderr.trim().split(/\r?\n/).slice(-20).join('\n') || errorLines(out, 0).join('\n'));
    const [, functionMissing, plugin, fn] = m as unknown as [string, string | undefined, string, string];
    if (stubs.get(plugin)?.has(fn)) return other(`makensis did not accept the stand-in for ${plugin}::${fn}:\n${errorLines(out, m.index).join('\n')}`);
    gaps.push({ dll: `${plugin}.dll`, function: fn, dllPresent: Boolean(functionMissing), where: errorLines(out, m.index).slice(1) });
    const fns = stubs.get(plugin) ?? new Set<string>();
    fns.add(fn);
    stubs.set(plugin, fns);
    writeFileSync(path.join(stubDir, `${plugin}.dll`), stubPluginDll(plugin, [...fns]));
  }
  return { gaps, compilesWithStandIns: false, otherError: `more than ${MAX_GAPS} missing plugin functions`, warnings: [], warningsAreErrors };
}

/** Where a gap's call is, as `file:line` (the innermost file makensis names: a template, or "<stdin>" for the generated header). */
export function callSite(gap: PluginGap): string | null {
  for (const w of gap.where) {
    const m = /^(?:!include: error in script|Error in script):? "([^"]+)" on line (\d+)/.exec(w);
    if (m?.[1] !== undefined) return `${m[1].split(/[\\/]/).pop()}:${m[2]}`;
  }
  return null;
}

/** The DLLs of `gaps`, each with the functions called in it, in first-seen order. */
export function gapsByDll(gaps: PluginGap[]): { dll: string; functions: string[] }[] {
  const by = new Map<string, string[]>();
  for (const g of gaps) by.set(g.dll, [...(by.get(g.dll) ?? []), g.function]);
  return [...by].map(([dll, functions]) => ({ dll, functions }));
}
