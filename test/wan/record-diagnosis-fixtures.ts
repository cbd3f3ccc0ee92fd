/**
 * Records the result documents test/analysis/ diagnoses: runs each truth-matrix scenario
 * (diagnosis-scenarios.ts) on the kernel WAN harness and saves the controller's result under
 * test/analysis/fixtures/<name>.json. Needs root. `node dist/test/wan/record-diagnosis-fixtures.js [name…]`.
 * The saved document is the raw record (TCP_INFO series, sockets, totals); the tests re-diagnose it,
 * so a change to the verdict rules is checked against what real kernels did.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO } from '../helpers/processes.js';
import { SCENARIOS } from './diagnosis-scenarios.js';
import { runScenario } from './diagnosis-scenarios.js';

const OUT = path.join(REPO, 'test', 'analysis', 'fixtures');
const wanted = process.argv.slice(2);

await mkdir(OUT, { recursive: true });
for (const s of SCENARIOS.filter((x) => !wanted.length || wanted.includes(x.name))) {
  const started = Date.now();
  const r = await runScenario(s);
  const d = r.diagnosis?.[0];
  const doc = { recorded: { scenario: s.name, built: s.built, at: new Date().toISOString() }, result: r };
  await writeFile(path.join(OUT, `${s.name}.json`), `${JSON.stringify(doc, null, 1)}\n`);
  process.stdout.write(
    `${s.name}: ${((Date.now() - started) / 1000).toFixed(0)} s, ${((r.total.bitsPerSecond ?? 0) / 1e6).toFixed(2)} Mbit/s, then-verdict ${d?.verdict}: ${d?.sentence}\n`,
  );
}
