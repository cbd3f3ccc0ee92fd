/**
 * The layers of electron/ only point down. Each folder has a rank; a file may
 * import its own folder and folders of a lower rank, nothing else (a `type`
 * import counts too: a type from above ties the layers as much as a value).
 * The checker is checked on a bad sample first, so it cannot pass vacuously.
 *
 *   root files (main, preload)   11
 *   cli                          10   the headless CLI
 *   ui-server                     9   browser mode's server
 *   app                           8   the backend both app hosts share
 *   sweep                       7.5   run plans over many settings: above report and engine, below app and cli
 *   report                        7   reports and exports of results
 *   engine                        6   runs: controller, responder, data plane
 *   proxy                         5   the link emulator
 *   security                      4   pairing, TLS, trust
 *   protocol                      3   control-channel framing and messages
 *   iperf3                        3   iperf3's control protocol: codec and documents (its client and server are engine/iperf3-*)
 *   native, discovery             2   the addon's bindings, DNS-SD
 *   analysis                    1.5   why not faster: verdicts, advice, summaries; pure functions over a result
 *   util                          1   units, errors, paths, net
 *   contract                      0   types and pure rules shared with the renderer
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importSpecifiers, sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';

const ELECTRON = path.join(REPO, 'electron');
const RANKS: Record<string, number> = {
  contract: 0,
  util: 1,
  analysis: 1.5,
  native: 2,
  discovery: 2,
  protocol: 3,
  iperf3: 3,
  security: 4,
  proxy: 5,
  engine: 6,
  report: 7,
  sweep: 7.5,
  app: 8,
  'ui-server': 9,
  cli: 10,
  '': 11,
};

/** The top folder of electron/ a path is in ('' for the root files), or null outside electron/. */
function layerOf(file: string): string | null {
  const rel = path.relative(ELECTRON, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  return parts.length === 1 ? '' : parts[0]!;
}

/** The imports of one file that point up or sideways (empty when it is clean). */
function upwardImports(file: string, text: string): string[] {
  const from = layerOf(file);
  if (from === null) return [];
  const rank = RANKS[from];
  assert.notEqual(rank, undefined, `electron/${from}/ has no rank in test/layers/layers.test.ts: give it one`);
  const bad: string[] = [];
  for (const spec of importSpecifiers(text)) {
    if (!spec.startsWith('.')) continue;
    const to = layerOf(path.resolve(path.dirname(file), spec));
    if (to === null || to === from) continue;
    const target = RANKS[to];
    if (target === undefined || target >= rank!) bad.push(spec);
  }
  return bad;
}

describe('electron/ layers', () => {
  it('finds upward and sideways imports in a bad sample', () => {
    const f = path.join(ELECTRON, 'protocol', 'x.ts');
    const sample = [
      "import { runParamsSchema } from '../engine/params.js';",
      "import type { PeerRecord } from '../security/peer-store.js';",
      "export { x } from '../native/load-native.js';",
      "const p = await import('../proxy/pipe.js');",
      "import { encodeFrame } from './framing.js';",
      "import { groupDigits } from '../util/units.js';",
      "import type { LonghaulResult } from '../contract/result.js';",
      "import { z } from 'zod';",
    ].join('\n');
    assert.deepEqual(upwardImports(f, sample), ['../engine/params.js', '../security/peer-store.js', '../proxy/pipe.js']);
    // Same rank, another folder: sideways.
    assert.deepEqual(upwardImports(path.join(ELECTRON, 'native', 'y.ts'), "import { browse } from '../discovery/dns-sd.js';"), ['../discovery/dns-sd.js']);
  });

  it('holds for every file under electron/', () => {
    const files = sourceFiles(ELECTRON, /\.ts$/);
    assert.ok(files.length >= 100, `found ${files.length} sources`);
    const offenders = files.flatMap((f) => upwardImports(f, readFileSync(f, 'utf8')).map((s) => `${path.relative(REPO, f)}: ${s}`));
    assert.deepEqual(offenders, []);
  });
});
