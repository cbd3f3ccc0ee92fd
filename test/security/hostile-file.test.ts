/**
 * A result file is not trusted to hold no escape sequence: a shared or hand-made result whose host
 * names, error messages, notes or verdicts hold ESC [2J, an OSC title or OSC 52 clipboard write, a
 * one-byte C1 CSI (0x9B), a bidi override or other format characters prints every one of them as a
 * visible `\u{…}` in every output `report --from` has (the console log, ttcp, CSV, HTML, JSON). The file is a real `longhaul loopback` result with the hostile text
 * added to every string field the result schema still accepts (and to a key of a free-form map).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseResult } from '../../electron/report/result-file.js';
import { cli } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

/** Clear the screen, retitle the window, write the clipboard, a one-byte CSI, reversed text, a zero-width joiner, a line separator. */
const HOSTILE = '\u001b[2J\u001b]0;owned\u0007\u001b]52;c;ZWNobyBvd25lZA==\u0007\u009b31m\u202egnp.exe\u2066x\u2069\u200d\u2028end';
/** What no output may hold: controls other than tab, newline and carriage return, C1, bidi and format characters, separators. */
// eslint-disable-next-line no-control-regex -- control characters are what the test looks for
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** Every path to a string leaf of `v`. */
function stringPaths(v: Json, at: (string | number)[] = []): (string | number)[][] {
  if (typeof v === 'string') return [at];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringPaths(x, [...at, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => stringPaths(x, [...at, k]));
  return [];
}

function setAt(root: Json, p: (string | number)[], value: string): void {
  let o = root as Record<string | number, Json>;
  for (const k of p.slice(0, -1)) o = o[k] as Record<string | number, Json>;
  o[p.at(-1)!] = value;
}

describe('a result file with hostile strings', { timeout: 120_000 }, () => {
  it('prints no control, C1, bidi or format character in any format of report --from', async (t) => {
    const dir = tmpDir(t);
    const file = path.join(dir, 'run.json');
    const run = await cli(['loopback', '-t', '1', '-i', '0.5', '--json', file], 60_000).done;
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(readFileSync(file, 'utf8')) as Json;
    let injected = 0;
    for (const p of stringPaths(result)) {
      const before = p.reduce<Json>((o, k) => (o as Record<string | number, Json>)[k] as Json, result) as string;
      setAt(result, p, `${before}${HOSTILE}`);
      try {
        parseResult(JSON.parse(JSON.stringify(result)), 'hostile');
        injected++;
      } catch {
        setAt(result, p, before); // an enum or a pattern the schema checks: a file with it is refused whole
      }
    }
    const settings = (result as { localSettings?: Record<string, Json> }).localSettings;
    if (settings) settings[`net.core.rmem_max${HOSTILE}`] = `1${HOSTILE}`;
    assert.ok(injected >= 10, `${injected} string fields took the hostile text`);
    for (const field of ['controller.hostname', 'responder.hostname'])
      assert.match(JSON.stringify(field.split('.').reduce<Json>((o, k) => (o as Record<string, Json>)[k] as Json, result)), /\\u001b\[2J/, field);
    const hostile = path.join(dir, 'hostile.json');
    writeFileSync(hostile, JSON.stringify(result));

    const outputs: [string, string[]][] = [
      ['console (the default)', ['report', '--from', hostile]],
      ['ttcp', ['report', '--from', hostile, '--format', 'ttcp']],
      ['csv', ['report', '--from', hostile, '--format', 'csv']],
      ['html', ['report', '--from', hostile, '--format', 'html']],
      ['json', ['report', '--from', hostile, '--format', 'json']],
    ];
    for (const [name, args] of outputs) {
      const r = await cli(args, 30_000).done;
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      // The CSV's own first character is a byte-order mark (so Excel reads UTF-8): Longhaul's, not the file's.
      const out = (name === 'csv' ? r.stdout.replace(/^\uFEFF/, '') : r.stdout) + r.stderr;
      const bad = UNSAFE.exec(out);
      assert.equal(
        bad,
        null,
        `${name}: U+${bad?.[0].codePointAt(0)?.toString(16)} at ${bad?.index}: ${JSON.stringify(out.slice(Math.max(0, (bad?.index ?? 0) - 40), (bad?.index ?? 0) + 20))}`,
      );
      // Not vacuous: the host name is in every format but ttcp's and CSV's, shown, not obeyed.
      if (!['ttcp', 'csv'].includes(name)) assert.match(out, /\\u\{1b\}\[2J/, `${name} shows the escape as text`);
    }
  });
});
