/**
 * docs/prometheus/longhaul-alerts.yml, the alert rules docs/schedules.md ships: every metric its
 * expressions read is one `longhaul schedule --metrics` serves (or a rule of the file, or
 * Prometheus's own `up`); `promtool check rules` accepts it; `promtool test rules` runs its unit
 * tests (test/docs/prometheus/longhaul-alerts-test.yml: input series, the alerts expected when).
 * Each check is first shown to fail on a broken copy, so none passes by accident. The promtool
 * checks skip with the reason when Debian's `prometheus` is not installed (CI installs it).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { REPO } from '../helpers/processes.js';
import { PROMTOOL, skipWithout } from '../helpers/prometheus.js';
import { promqlMetricNames, scheduleMetricLabels, unknownNames } from '../helpers/promql-names.js';
import { tmpDir } from '../helpers/tmp.js';

const RULES = path.join(REPO, 'docs/prometheus/longhaul-alerts.yml');
const UNIT_TESTS = path.join(REPO, 'test/docs/prometheus/longhaul-alerts-test.yml');
/** Read by a rule, served by Prometheus itself: whether the scrape of /metrics succeeds. */
const PROMETHEUS_OWN = new Set(['up']);
const skipPromtool = skipWithout(PROMTOOL);

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}

const rulesOf = (file: RuleFile): Rule[] => file.groups.flatMap((g) => g.rules);

/** What the file's rules read that the schedule does not serve, no rule of the file records, and Prometheus does not have. */
function unknownMetrics(file: RuleFile): string[] {
  const recorded = rulesOf(file).flatMap((r) => (r.record ? [r.record] : []));
  const exprs = rulesOf(file).map((r) => ({ where: r.alert ?? r.record ?? '?', expr: r.expr }));
  return unknownNames(exprs, scheduleMetricLabels(), new Set([...recorded, ...PROMETHEUS_OWN]));
}

async function promtool(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(PROMTOOL, args, { timeout: 60_000 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('docs/prometheus/longhaul-alerts.yml', { timeout: 120_000 }, () => {
  const text = readFileSync(RULES, 'utf8');
  const file = parse(text) as RuleFile;

  it('the name check finds a metric the schedule does not serve and a label it does not have, and only those', () => {
    const sample: RuleFile = {
      groups: [
        {
          name: 'x',
          rules: [
            { record: 'longhaul:x', expr: 'sum by (schedule) (rate(longhaul_runs_total{outcome="failed",code=~"LH_.*"}[5m]))' },
            { alert: 'A', expr: 'longhaul_throughput_bits_per_sec < on (schedule) group_left () 2 * longhaul:x offset 1h' },
            { alert: 'B', expr: 'time() - longhaul_last_run_timestamp_seconds{direction="to-peer"} > 1e6 and up == 0' },
          ],
        },
      ],
    };
    assert.deepEqual(unknownMetrics(sample), [
      'A: no metric longhaul_throughput_bits_per_sec',
      'B: longhaul_last_run_timestamp_seconds has no label direction',
    ]);
  });

  it('reads only metrics (and labels) the schedule serves, rules of its own, and up; every recording rule is read', () => {
    assert.deepEqual(unknownMetrics(file), []);
    const read = new Set(rulesOf(file).flatMap((r) => promqlMetricNames(r.expr)));
    const unread = rulesOf(file).flatMap((r) => (r.record && !read.has(r.record) ? [r.record] : []));
    assert.deepEqual(unread, [], 'a recording rule nothing reads is a knob that turns nothing');
    for (const r of rulesOf(file).filter((x) => x.alert)) {
      assert.ok(r.labels?.severity, `${r.alert} has a severity`);
      assert.ok(r.annotations?.summary, `${r.alert} has a summary`);
    }
    const alerts = rulesOf(file).flatMap((r) => (r.alert ? [r.alert] : []));
    for (const want of ['LonghaulThroughputLow', 'LonghaulNoRecentRun', 'LonghaulRunsFailing', 'LonghaulResultsNotSaved', 'LonghaulVerdictChanged'])
      assert.ok(alerts.includes(want), `${want} is among ${alerts.join(', ')}`);
  });

  it('promtool check rules accepts it, every rule counted, and refuses a copy with a broken expression', { skip: skipPromtool }, async (t) => {
    const ok = await promtool(['check', 'rules', RULES]);
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, new RegExp(`SUCCESS: ${rulesOf(file).length} rules found`));
    const broken = path.join(tmpDir(t), 'broken.yml');
    const before = 'longhaul_throughput_bits_per_second < on (schedule, peer, direction)';
    assert.ok(text.includes(before));
    await writeFile(broken, text.replace(before, 'longhaul_throughput_bits_per_second < on (schedule, peer, direction'));
    const bad = await promtool(['check', 'rules', broken]);
    assert.notEqual(bad.code, 0, bad.out);
    assert.match(bad.out, /LonghaulThroughputLow|parse error/);
  });

  it(
    'promtool test rules: each alert fires when its unit tests expect, and not before; a copy reading a wrong metric fails them',
    { skip: skipPromtool },
    async (t) => {
      const ok = await promtool(['test', 'rules', UNIT_TESTS]);
      assert.equal(ok.code, 0, ok.out);
      assert.match(ok.out, /SUCCESS/);

      // The same unit tests against a copy whose throughput rules read a metric the scheduler does not serve.
      const dir = tmpDir(t);
      const wrong = path.join(dir, 'longhaul-alerts.yml');
      await writeFile(wrong, text.replaceAll('longhaul_throughput_bits_per_second', 'longhaul_throughput_bps'));
      const tests = parse(readFileSync(UNIT_TESTS, 'utf8')) as { rule_files: string[] };
      const unitDir = path.dirname(UNIT_TESTS);
      tests.rule_files = tests.rule_files.map((f) => (path.resolve(unitDir, f) === RULES ? wrong : path.resolve(unitDir, f)));
      const wrongTests = path.join(dir, 'unit.yml');
      await writeFile(wrongTests, stringify(tests));
      const bad = await promtool(['test', 'rules', wrongTests]);
      assert.notEqual(bad.code, 0, bad.out);
      assert.match(bad.out, /alertname: LonghaulThroughputLow/);
    },
  );
});
