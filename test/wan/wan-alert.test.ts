/**
 * The alert docs/prometheus/longhaul-alerts.yml ships, on a real path whose rate drops mid-schedule.
 *
 *   netns A: longhaul schedule ──/metrics 127.0.0.1:9464──▶ prometheus (127.0.0.1:9090, the rules)
 *            │  │                                            ▲ queried by `node -e fetch` run in A
 *            │  └─ 127.0.0.1 ─ longhaul listen (control: never crosses the link)
 *            └─ link (tbf R1, then R2) ─ netns B: longhaul listen
 *
 * Prometheus evaluates a copy of the shipped rule file made mechanically: the same expressions, a
 * floor for this schedule (one more `:configured` rule, as the file's comments show) and a short
 * `for:`. At R1 it has both peers' series and LonghaulThroughputLow is inactive; the link lowered to
 * R2, the alert fires for the peer behind the link and never for the control. Needs root; skips with
 * the reason otherwise, or when Debian's `prometheus` is not installed.
 */
import assert from 'node:assert/strict';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { PROMETHEUS, prometheusArgs, skipWithout } from '../helpers/prometheus.js';
import { REPO_ROOT } from './helper-build.js';
import { TCP_PAYLOAD_FRACTION } from './link-config.js';
import { wanSkipReason } from './preflight.js';
import { waitForOutput } from './run-cmd.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason()) ?? skipWithout(PROMETHEUS);
const LONGHAUL_BIN = join(REPO_ROOT, 'bin', 'longhaul.js');
const RULES = join(REPO_ROOT, 'docs', 'prometheus', 'longhaul-alerts.yml');
const ALERT = 'LonghaulThroughputLow';
const SCHEDULE = 'wan';

/** Each test paces its stream at 8 Mbit/s (-b): at R1 the link carries all of it, and the control on loopback costs little CPU. */
const PACED = '8M';
/** R1 carries 20 × 0.956 = 19.1 Mbit/s of TCP payload: more than the paced 8. */
const R1_BPS = 20e6;
/** R2 carries at most 2 × 0.956 = 1.91 Mbit/s of payload (tbf counts whole frames): half the floor, whatever TCP does. */
const R2_BPS = 2e6;
/** Between the two: the paced 8 Mbit/s is twice it, R2's ceiling half of it. Above the default floor (1e6), so the alert firing also shows the schedule's own floor applied. */
const FLOOR_BPS = 4e6;
/** Two rounds (every 5 s): one test that straddles the change cannot fire it alone. */
const FOR = '10s';
const FOR_MS = 10_000;
/**
 * From the change to firing: the next test of the peer starts within one round (5 s) and lasts 2 s
 * plus set-up; a scrape (1 s) and an evaluation (1 s) later the alert is pending, FOR later firing,
 * an evaluation after that. About 20 s; twice that for a loaded machine.
 */
const FIRE_WITHIN_MS = 40_000;

/** The shipped rule file with this schedule's floor and a short `for:`: the expressions untouched. */
function rulesForTest(): string {
  const file = parse(readFileSync(RULES, 'utf8')) as {
    groups: { name: string; rules: { record?: string; alert?: string; expr: string; for?: string; labels?: Record<string, string> }[] }[];
  };
  const settings = file.groups.find((g) => g.name === 'longhaul-settings');
  assert.ok(settings, 'the rule file has its longhaul-settings group');
  assert.ok(
    settings.rules.some((r) => r.record === 'longhaul:throughput_floor_bits_per_second:configured'),
    'the floor is a setting',
  );
  settings.rules.push({ record: 'longhaul:throughput_floor_bits_per_second:configured', expr: `vector(${FLOOR_BPS})`, labels: { schedule: SCHEDULE } });
  const alerts = file.groups.flatMap((g) => g.rules).filter((r) => r.alert === ALERT);
  assert.equal(alerts.length, 1, `one ${ALERT} in the rule file`);
  alerts[0]!.for = FOR;
  return stringify(file);
}

interface PromAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
  value: string;
}

describe('the shipped throughput alert, through a kernel link whose rate drops mid-schedule', { skip, timeout: 120_000 }, () => {
  let link: WanLink | undefined;
  let dir = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'longhaul-wan-alert-'));
    link = await createWanLink({ rateBitsPerSec: R1_BPS, oneWayDelayMs: 0 });
  });
  after(async () => {
    // The namespaces go with every process in them (schedule, listeners, prometheus); then their files.
    await link?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** GET from the Prometheus in A, by a Node run in A (the test runs outside the namespaces). */
  async function promGet<T>(pathAndQuery: string): Promise<T> {
    const script =
      'fetch(process.argv[1]).then(async (r) => { if (!r.ok) throw new Error(`${r.status} ${await r.text()}`); process.stdout.write(await r.text()); })';
    const { stdout } = await link!.execInA(process.execPath, ['-e', script, `http://127.0.0.1:9090${pathAndQuery}`], 10_000);
    return (JSON.parse(stdout) as { data: T }).data;
  }
  const alertsOf = async (peer: string): Promise<PromAlert[]> =>
    (await promGet<{ alerts: PromAlert[] }>('/api/v1/alerts')).alerts.filter((a) => a.labels.alertname === ALERT && a.labels.peer === peer);
  const valuesOf = async (expr: string): Promise<Map<string, number>> =>
    new Map(
      (await promGet<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`)).result.map(
        (s) => [s.metric.peer ?? '', Number(s.value[1])],
      ),
    );
  async function until<T>(what: string, ms: number, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms; last: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  it(`fires ${ALERT} for the peer behind the link once its rate drops from R1 to R2, and not for the control`, async (t) => {
    const env = { ...process.env, LONGHAUL_DATA_DIR: join(dir, 'results') };
    const listen = async (spawnIn: (cmd: string, args: string[], o: SpawnOptions) => ChildProcess, bind: string[]): Promise<string> => {
      const child = spawnIn(process.execPath, [LONGHAUL_BIN, 'listen', '--port', '0', '--no-advertise', ...bind], { stdio: ['ignore', 'pipe', 'pipe'], env });
      return (await waitForOutput(child, /listening on \S+:(\d+)/, 15_000))[1]!;
    };
    const viaLink = `${link!.bAddr}:${await listen((c, a, o) => link!.spawnInB(c, a, o), [])}`;
    const control = `127.0.0.1:${await listen((c, a, o) => link!.spawnInA(c, a, o), ['--bind', '127.0.0.1'])}`;

    const rules = join(dir, 'longhaul-alerts.yml');
    writeFileSync(rules, rulesForTest());
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      stringify({
        global: { scrape_interval: '1s', evaluation_interval: '1s' },
        rule_files: [rules],
        scrape_configs: [{ job_name: 'longhaul', static_configs: [{ targets: ['127.0.0.1:9464'] }] }],
      }),
    );
    const prom = link!.spawnInA(PROMETHEUS, prometheusArgs(config, dir, '127.0.0.1:9090'), { stdio: ['ignore', 'ignore', 'pipe'] });
    let promLog = '';
    prom.stderr?.on('data', (c: Buffer) => (promLog = (promLog + c.toString()).slice(-4000)));

    const schedule = link!.spawnInA(
      process.execPath,
      [LONGHAUL_BIN, 'schedule', '--every', '5s', '--name', SCHEDULE, '-t', '2', '-b', PACED, '--metrics', '127.0.0.1:9464', viaLink, control],
      { stdio: ['ignore', 'pipe', 'pipe'], env },
    );
    let log = '';
    schedule.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    schedule.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    t.after(() => t.diagnostic(`schedule's log:\n${log}`));

    // R1: both peers' series in Prometheus, the floor applied to them, the alert inactive.
    const throughput = `longhaul_throughput_bits_per_second{schedule="${SCHEDULE}",direction="to-peer"}`;
    const atR1 = await until(
      `both peers measured at R1 (prometheus: ${promLog.slice(-500)})`,
      40_000,
      () => valuesOf(throughput).catch(() => new Map<string, number>()),
      (m) => m.size === 2,
    );
    // A recording rule: Prometheus writes it at its next evaluation (every 1 s) after the series it reads appear, not with them.
    const floors = await until(
      'the floor recorded for the peer behind the link',
      10_000,
      () => valuesOf(`longhaul:throughput_floor_bits_per_second{schedule="${SCHEDULE}"}`).catch(() => new Map<string, number>()),
      (m) => m.has(viaLink),
    );
    assert.equal(floors.get(viaLink), FLOOR_BPS, "the schedule's own floor applies to the peer behind the link");
    for (const [peer, bps] of atR1)
      assert.ok(bps > FLOOR_BPS, `at R1 ${peer} read ${(bps / 1e6).toFixed(2)} Mbit/s, above the ${FLOOR_BPS / 1e6} Mbit/s floor`);
    assert.deepEqual(await alertsOf(viaLink), [], `${ALERT} is inactive at R1`);

    await link!.setRate(R2_BPS);
    const loweredAt = Date.now();
    const firing = await until(
      `${ALERT} firing for ${viaLink} after the rate dropped to R2`,
      FIRE_WITHIN_MS,
      () => alertsOf(viaLink),
      (as) => as.some((a) => a.state === 'firing'),
    );
    const firedAfterMs = Date.now() - loweredAt;
    const alert = firing.find((a) => a.state === 'firing')!;
    const pendingAfterMs = Date.parse(alert.activeAt) - loweredAt;
    t.diagnostic(
      `R1 read ${[...atR1].map(([p, v]) => `${p} ${(v / 1e6).toFixed(2)}`).join(', ')} Mbit/s; after the drop to R2 the alert was pending ${(pendingAfterMs / 1000).toFixed(1)} s and seen firing ${(firedAfterMs / 1000).toFixed(1)} s later (for: ${FOR})`,
    );
    assert.equal(alert.labels.schedule, SCHEDULE);
    assert.equal(alert.labels.direction, 'to-peer');
    // Firing means below the floor for the whole `for:`: never sooner than that after the drop.
    assert.ok(firedAfterMs >= FOR_MS, `fired ${firedAfterMs} ms after the drop, sooner than its for: ${FOR}`);
    // The receiver cannot read faster than R2 carries (5 % for the tbf bucket's burst at the test's start).
    const atR2 = Number(alert.value);
    assert.ok(atR2 <= R2_BPS * TCP_PAYLOAD_FRACTION * 1.05, `${(atR2 / 1e6).toFixed(2)} Mbit/s through a ${R2_BPS / 1e6} Mbit/s link`);

    assert.deepEqual(await alertsOf(control), [], `${ALERT} is neither pending nor firing for the control, which the link never carries`);
    const controlNow = (await valuesOf(throughput)).get(control) ?? 0;
    assert.ok(controlNow > FLOOR_BPS, `the control still reads ${(controlNow / 1e6).toFixed(2)} Mbit/s`);
  });
});
