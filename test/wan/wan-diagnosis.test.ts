/**
 * The truth matrix: Longhaul's verdict on paths whose limit is known because they were built that way
 * (diagnosis-scenarios.ts: receive window by -w; the receiver's tcp_rmem capped under BBR and CUBIC; a
 * shallow queue; bufferbloat at 10 × BDP under CUBIC; 1 % loss under CUBIC and BBR; the sender's tcp_wmem
 * capped under BBR; 10 × BDP under BBR; unequal streams with -n; a receiving data worker held to 5 % of a
 * core; loopback, where both ends share this PC's cores). Each run is real
 * kernel TCP through the WAN harness, ≤ 8 s of data; the test asserts the verdict and the advice's topic,
 * never a tight rate (the machine is shared). The congestion control is widened into the allowed list
 * for the run and restored after it; the harness removes its namespaces also when a run fails.
 * About 2 minutes. Needs root; skips with the reason otherwise.
 */
import { describe, it } from 'node:test';
import { SCENARIOS, runScenario } from './diagnosis-scenarios.js';
import { wanSkipReason } from './preflight.js';
import { assertScenarioVerdict } from './scenario-verdict.js';

const skip = (await wanSkipReason()) ?? false;

describe('diagnosis truth matrix on the kernel WAN harness', { skip, timeout: 480_000 }, () => {
  // Rows with the Windows build as receiver run in wan-diagnosis-wine.test.ts, which holds the Windows lane.
  for (const s of SCENARIOS.filter((x) => x.receiverRuntime !== 'wine')) {
    it(`${s.name} (${s.built}): ${s.expected}, advice on ${s.adviceTopic}`, { timeout: 40_000 }, async (t) => {
      const r = await runScenario(s);
      assertScenarioVerdict(s, r, (line) => t.diagnostic(line));
    });
  }
});
