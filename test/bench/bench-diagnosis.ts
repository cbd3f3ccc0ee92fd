/**
 * `npm run bench:diagnosis`: the truth matrix (test/wan/diagnosis-scenarios.ts) run for real on the
 * kernel WAN harness, printed as a table: scenario | how it was built | Longhaul's case | right?
 * The markdown table is what docs/diagnosis.md carries, with the date. Needs root.
 */
import { SCENARIOS, runScenario } from '../wan/diagnosis-scenarios.js';
import { wanSkipReason } from '../wan/preflight.js';
import { adviceProblems, findingProblems } from '../wan/scenario-verdict.js';

const skip = await wanSkipReason();
if (skip) {
  process.stderr.write(`bench:diagnosis needs the kernel WAN harness: ${skip}\n`);
  process.exit(2);
}
const rows: string[] = [];
let right = 0;
for (const s of SCENARIOS) {
  let verdict: string;
  let ok = false;
  try {
    const r = await runScenario(s);
    const d = r.diagnosis?.[0];
    const problems = [...findingProblems(s, d), ...adviceProblems(s, r)];
    ok = problems.length === 0;
    verdict = `${d?.case ?? d?.verdict ?? 'none'} (${((r.total.bitsPerSecond ?? 0) / 1e6).toFixed(1)} Mbit/s${problems.length ? `; ${problems.join('; ')}` : ''})`;
  } catch (err) {
    verdict = `run failed: ${(err as Error).message.split('\n')[0]}`;
  }
  if (ok) right++;
  const row = `| ${s.name} | ${s.built} | ${verdict} | ${ok ? 'yes' : `no (expected ${s.cases.join(' or ')})`} |`;
  rows.push(row);
  process.stdout.write(`${row}\n`);
}
process.stdout.write(
  `\n${new Date().toISOString().slice(0, 10)}: ${right} of ${SCENARIOS.length} right\n\n| scenario | how it was built | Longhaul's case | right? |\n|---|---|---|---|\n${rows.join('\n')}\n`,
);
process.exit(right === SCENARIOS.length ? 0 : 1);
