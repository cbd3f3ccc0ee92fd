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
 *   schedule                    7.7   tests every interval and their metrics: above sweep (its run targets), below app and cli
 *   sweep                       7.5   run plans over many settings: above report and engine, below app and cli
 *   report                        7   reports and exports of results
 *   engine/iperf3, engine/group 6.6   iperf3 runs (client, server, port take-over); groups of runs over one session each
 *   engine/session              6.3   one run's session: controller, responder, lifecycle, recording, capacity
 *   engine/data-plane             6   the bytes: data workers, stream sockets, send backlog, tick merger, Windows' owned listener
 *   proxy                         5   the link emulator
 *   security                      4   pairing, TLS, trust
 *   protocol                      3   control-channel framing and messages
 *   protocol/iperf3               3   iperf3's control protocol: codec and documents (its client and server are engine/iperf3/)
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
  'protocol/iperf3': 3,
  security: 4,
  proxy: 5,
  'engine/data-plane': 6,
  'engine/session': 6.3,
  'engine/iperf3': 6.6,
  'engine/group': 6.6,
  report: 7,
  sweep: 7.5,
  schedule: 7.7,
  app: 8,
  'ui-server': 9,
  cli: 10,
  '': 11,
};

/**
 * The layer of electron/ a path is in: its top folder ('' for the root files), or its top two
 * folders where those have a rank of their own (`engine/session`); null outside electron/.
 */
function layerOf(file: string): string | null {
  const rel = path.relative(ELECTRON, file);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  if (parts.length === 1) return '';
  const sub = `${parts[0]}/${parts[1]}`;
  return parts.length > 2 && RANKS[sub] !== undefined ? sub : parts[0]!;
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
      "import { runParamsSchema } from '../engine/session/params.js';",
      "import type { PeerRecord } from '../security/peer-store.js';",
      "export { x } from '../native/load-native.js';",
      "const p = await import('../proxy/pipe.js');",
      "import { encodeFrame } from './framing.js';",
      "import { groupDigits } from '../util/units.js';",
      "import type { LonghaulResult } from '../contract/result.js';",
      "import { z } from 'zod';",
    ].join('\n');
    assert.deepEqual(upwardImports(f, sample), ['../engine/session/params.js', '../security/peer-store.js', '../proxy/pipe.js']);
    // Same rank, another folder: sideways.
    assert.deepEqual(upwardImports(path.join(ELECTRON, 'native', 'y.ts'), "import { browse } from '../discovery/dns-sd.js';"), ['../discovery/dns-sd.js']);
    // The engine's rooms rank among themselves: the data plane sits below the session, iperf3 and groups beside each other above it.
    const plane = path.join(ELECTRON, 'engine', 'data-plane', 'data-worker', 'z.ts');
    const engineSample = ["import type { RunParams } from '../../session/params.js';", "import { TickMerger } from '../tick-merger.js';"].join('\n');
    assert.deepEqual(upwardImports(plane, engineSample), ['../../session/params.js']);
    const group = path.join(ELECTRON, 'engine', 'group', 'g.ts');
    const groupSample = ["import { runController } from '../session/controller.js';", "import { runIperf3 } from '../iperf3/iperf3-client.js';"].join('\n');
    assert.deepEqual(upwardImports(group, groupSample), ['../iperf3/iperf3-client.js']);
  });

  it('holds for every file under electron/', () => {
    const files = sourceFiles(ELECTRON, /\.ts$/);
    assert.ok(files.length >= 100, `found ${files.length} sources`);
    const offenders = files.flatMap((f) => upwardImports(f, readFileSync(f, 'utf8')).map((s) => `${path.relative(REPO, f)}: ${s}`));
    assert.deepEqual(offenders, []);
  });
});
