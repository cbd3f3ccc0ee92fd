/**
 * docs/grafana/longhaul-dashboard.json, the dashboard docs/schedules.md ships: a dashboard Grafana
 * imports (schema 36 or later, a Prometheus datasource variable, schedule and peer variables, the
 * panels the docs promise); every metric and label its queries name is one `longhaul schedule
 * --metrics` serves (or the alert rules record); and a real Prometheus, scraping a schedule's
 * metrics after a few recorded tests and loading the alert rules, accepts every query and answers
 * each with data. The checks are first shown to fail on a wrong name and a broken query.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { ScheduleRunRecord } from '../../electron/contract/schedule.js';
import { serveMetrics } from '../../electron/schedule/metrics-server.js';
import { ScheduleMetrics } from '../../electron/schedule/schedule-metrics.js';
import { within } from '../helpers/net.js';
import { REPO } from '../helpers/processes.js';
import { PROMETHEUS, skipWithout, startLocalPrometheus } from '../helpers/prometheus.js';
import { promqlMetricNames, scheduleMetricLabels, unknownNames } from '../helpers/promql-names.js';
import { tmpDir } from '../helpers/tmp.js';

const DASHBOARD = path.join(REPO, 'docs/grafana/longhaul-dashboard.json');
const RULES = path.join(REPO, 'docs/prometheus/longhaul-alerts.yml');
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

interface Target {
  refId: string;
  expr: string;
  datasource?: unknown;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: unknown;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: string | { query: string };
  datasource?: unknown;
}
interface Dashboard {
  title: string;
  uid: string;
  schemaVersion: number;
  templating: { list: Variable[] };
  panels: Panel[];
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const variableQuery = (v: Variable): string => (typeof v.query === 'string' ? v.query : v.query.query);

/** `label_values(SELECTOR, label)`: a query variable's selector and label. */
function labelValues(query: string): { selector: string; label: string } {
  const m = /^label_values\((.+),\s*(\w+)\)$/.exec(query.trim());
  assert.ok(m, `"${query}" is label_values(selector, label)`);
  return { selector: m[1]!, label: m[2]! };
}

/** Every query of the dashboard, named by where it is. Variables' selectors count as queries that read their label. */
function queriesOf(d: Dashboard): { where: string; expr: string }[] {
  const panels = d.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `${p.title} ${t.refId}`, expr: t.expr })));
  const variables = d.templating.list
    .filter((v) => v.type === 'query')
    .map((v) => {
      const { selector, label } = labelValues(variableQuery(v));
      // The label the variable lists must be one the metric has: read it as a matcher.
      const expr = selector.includes('{') ? selector.replace('{', `{${label}!="", `) : `${selector}{${label}!=""}`;
      return { where: `variable ${v.name}`, expr };
    });
  return [...panels, ...variables];
}

/** The names the alert rules record: the dashboard may draw them (the floor beside the throughput). */
function recordedByRules(): Set<string> {
  const rules = parse(readFileSync(RULES, 'utf8')) as { groups: { rules: { record?: string }[] }[] };
  return new Set(rules.groups.flatMap((g) => g.rules.flatMap((r) => (r.record ? [r.record] : []))));
}

/** A query as Grafana sends it, for one schedule and every peer and direction. */
function substituted(expr: string): string {
  return expr
    .replaceAll('$schedule', 'lab')
    .replaceAll('$peer', '.*')
    .replaceAll('$direction', '.*')
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$__interval', '15s')
    .replaceAll('$__range', '1h');
}

const rec = (peer: string, over: Partial<ScheduleRunRecord> = {}): ScheduleRunRecord => ({
  schedule: 'lab',
  slot: 1,
  peer: { host: peer, port: 5211 },
  startedAt: '2026-12-06T12:00:00.000Z',
  endedAt: new Date().toISOString(),
  outcome: 'ok',
  code: null,
  savedPath: '/x.json',
  saveError: null,
  tries: 1,
  ...over,
});

/** Just what the metrics read of a result: a TCP one with its capacity, or a UDP one. */
function result(protocol: 'tcp' | 'udp', verdict: string, bps: number): LonghaulResult {
  const total = { bytes: 1, bitsPerSecond: bps, ...(protocol === 'udp' ? { udp: { datagrams: 990, lost: 10, jitterMs: 1.5 } } : {}) };
  return {
    params: { protocol },
    total,
    directions: { controllerToResponder: total },
    diagnosis: [{ direction: 'controllerToResponder', verdict, case: `${verdict}/x`, numbers: { rttSeconds: 0.04, retransSegments: 3 } }],
    ...(protocol === 'tcp' ? { capacity: { payloadBitsPerSecond: 2 * bps } } : {}),
  } as unknown as LonghaulResult;
}

describe('docs/grafana/longhaul-dashboard.json', { timeout: 120_000 }, () => {
  it('is a dashboard Grafana imports: schema 36+, a Prometheus datasource variable every query uses, schedule and peer variables, panels that do not overlap', () => {
    assert.ok(dashboard.schemaVersion >= 36, `schemaVersion ${dashboard.schemaVersion}`);
    assert.match(dashboard.uid, /^[a-z0-9-]{1,40}$/);
    const vars = new Map(dashboard.templating.list.map((v) => [v.name, v]));
    assert.deepEqual([vars.get('datasource')?.type, vars.get('datasource')?.query], ['datasource', 'prometheus']);
    for (const name of ['schedule', 'peer']) assert.equal(vars.get(name)?.type, 'query', `a "${name}" variable`);
    for (const v of dashboard.templating.list.filter((x) => x.type === 'query')) assert.deepEqual(v.datasource, DATASOURCE, `variable ${v.name}`);
    const ids = dashboard.panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    for (const p of dashboard.panels) {
      assert.deepEqual(p.datasource, DATASOURCE, `${p.title}: the datasource variable`);
      assert.ok(p.targets && p.targets.length > 0, `${p.title} has queries`);
      for (const t of p.targets) assert.deepEqual(t.datasource, DATASOURCE, `${p.title} ${t.refId}`);
      assert.equal(new Set(p.targets.map((t) => t.refId)).size, p.targets.length, `${p.title}: refIds are unique`);
      const { x, w } = p.gridPos;
      assert.ok(x >= 0 && w > 0 && x + w <= 24, `${p.title} fits the 24 columns`);
    }
    for (const [i, a] of dashboard.panels.entries())
      for (const b of dashboard.panels.slice(i + 1)) {
        const [ga, gb] = [a.gridPos, b.gridPos];
        const apart = ga.x + ga.w <= gb.x || gb.x + gb.w <= ga.x || ga.y + ga.h <= gb.y || gb.y + gb.h <= ga.y;
        assert.ok(apart, `${a.title} and ${b.title} overlap`);
      }
  });

  it('has the panels the docs promise: throughput, capacity beside it, RTT, retransmits, UDP loss and jitter, the verdict as a state timeline, runs by outcome', () => {
    const reads = (p: Panel): string[] => (p.targets ?? []).flatMap((t) => promqlMetricNames(t.expr));
    const panelReading = (metric: string): Panel[] => dashboard.panels.filter((p) => reads(p).includes(metric));
    for (const m of [
      'longhaul_throughput_bits_per_second',
      'longhaul_rtt_seconds',
      'longhaul_retransmits',
      'longhaul_udp_loss_ratio',
      'longhaul_udp_jitter_seconds',
      'longhaul_runs_total',
      'longhaul_last_run_timestamp_seconds',
      'longhaul_failed_saves_total',
    ])
      assert.ok(panelReading(m).length > 0, `a panel reads ${m}`);
    assert.ok(
      panelReading('longhaul_path_capacity_bits_per_second').some((p) => reads(p).includes('longhaul_throughput_bits_per_second')),
      'the capacity is drawn beside the throughput',
    );
    assert.ok(
      panelReading('longhaul_verdict_info').some((p) => p.type === 'state-timeline'),
      'the verdict is a state timeline',
    );
  });

  it('the name check finds a wrong metric and a wrong label in a panel or a variable, and only those', () => {
    const bad: Dashboard = {
      ...dashboard,
      templating: { list: [{ name: 'peer', type: 'query', query: 'label_values(longhaul_runs_total, direction)', datasource: DATASOURCE }] },
      panels: [
        { ...dashboard.panels[0]!, title: 'P', targets: [{ refId: 'A', expr: 'longhaul_rtt_secs{peer=~"$peer"} or longhaul_rtt_seconds{outcome="ok"}' }] },
      ],
    };
    assert.deepEqual(unknownNames(queriesOf(bad), scheduleMetricLabels(), recordedByRules()), [
      'P A: no metric longhaul_rtt_secs',
      'P A: longhaul_rtt_seconds has no label outcome',
      'variable peer: longhaul_runs_total has no label direction',
    ]);
  });

  it('every metric and label its queries and variables name is one the schedule serves, or the alert rules record', () => {
    assert.deepEqual(unknownNames(queriesOf(dashboard), scheduleMetricLabels(), recordedByRules()), []);
  });

  it(
    'a real Prometheus, scraping a schedule after a few tests with the alert rules loaded, accepts every query and answers each with data',
    { skip: skipWithout(PROMETHEUS) },
    async (t) => {
      const metrics = new ScheduleMetrics();
      metrics.record(rec('tcp-pc'), result('tcp', 'window-limited', 40e6));
      metrics.record(rec('tcp-pc', { slot: 2 }), result('tcp', 'link-limited', 90e6));
      metrics.record(rec('udp-pc'), result('udp', 'link-limited', 2e6));
      metrics.record(rec('gone-pc', { outcome: 'failed', code: 'LH_ERR_PEER_GONE', savedPath: null }), null);
      metrics.record(rec('tcp-pc', { slot: 3, savedPath: null, saveError: 'ENOSPC' }), result('tcp', 'link-limited', 90e6));
      const server = await serveMetrics(metrics, '127.0.0.1', 0);
      t.after(() => server.close());
      const dir = tmpDir(t);
      const prom = await startLocalPrometheus(
        t,
        dir,
        [
          'global:',
          '  scrape_interval: 1s',
          '  evaluation_interval: 1s',
          'rule_files:',
          `  - ${RULES}`,
          'scrape_configs:',
          '  - job_name: longhaul',
          '    static_configs:',
          `      - targets: ['127.0.0.1:${server.address.port}']`,
          '',
        ].join('\n'),
      );
      const query = async (expr: string): Promise<{ status: number; series: number; body: string }> => {
        const res = await fetch(`${prom}/api/v1/query?query=${encodeURIComponent(expr)}`);
        const body = await res.text();
        const series = res.ok ? (JSON.parse(body) as { data: { result: unknown[] } }).data.result.length : 0;
        return { status: res.status, series, body };
      };
      // The rules' floor is recorded after a scrape and an evaluation: then every query has its data.
      await within(
        (async () => {
          while ((await query('longhaul:throughput_floor_bits_per_second')).series === 0) await new Promise((r) => setTimeout(r, 200));
        })(),
        30_000,
        'Prometheus scraping the schedule and evaluating the rules',
      );

      const broken = await query('sum by (peer) (longhaul_runs_total');
      assert.equal(broken.status, 400, `a query that does not parse is refused: ${broken.body}`);
      for (const { where, expr } of queriesOf(dashboard)) {
        const q = substituted(expr);
        assert.doesNotMatch(q, /\$/, `${where}: every variable substituted`);
        const r = await query(q);
        assert.equal(r.status, 200, `${where}: ${q}\n${r.body}`);
        assert.ok(r.series > 0, `${where} answers with data: ${q}\n${r.body}`);
      }
    },
  );
});
