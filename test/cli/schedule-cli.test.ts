/**
 * `longhaul schedule` against two paired `longhaul listen` processes on 127.0.0.1: three rounds in
 * three slots, one test at a time (checked from the saved results' start and end times), every result
 * in History tagged with its schedule and slot, `/metrics` in OpenMetrics with the last runs'
 * figures and the run counter; a peer busy with another controller is tried again, and the schedule
 * goes on. A real Prometheus (Debian's, when installed; CI installs it) scrapes the endpoint and
 * answers a query through its HTTP API.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { startCli } from '../helpers/cli-process.js';
import { pairedListeners } from '../helpers/listeners.js';
import { within } from '../helpers/net.js';
import { tmpDir } from '../helpers/tmp.js';

const PROMETHEUS = '/usr/bin/prometheus';

/** Wait (bounded) until `read()` gives a value `ok` accepts. */
async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean, ms: number, what: string): Promise<T> {
  return within(
    (async () => {
      for (;;) {
        const v = await read();
        if (ok(v)) return v;
        await new Promise((r) => setTimeout(r, 100));
      }
    })(),
    ms,
    what,
  );
}

async function results(dir: string): Promise<LonghaulResult[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  const all = await Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as LonghaulResult));
  // "Both on this PC" stores both ends' files; the schedule's are the controller's.
  return all.filter((r) => r.writtenBy === 'controller').sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** A TCP port free on 127.0.0.1 now (bound and released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A Prometheus that scrapes `target` every second, in `dir`, ready and with the target discovered; stopped with the test. */
async function startPrometheus(t: TestContext, dir: string, target: string): Promise<string> {
  const config = path.join(dir, 'prometheus.yml');
  await writeFile(config, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: longhaul\n    static_configs:\n      - targets: ['${target}']\n`);
  const child = spawn(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`, '--web.listen-address=127.0.0.1:19090'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => child.kill('SIGKILL'));
  let log = '';
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  await until(
    () =>
      fetch('http://127.0.0.1:19090/-/ready').then(
        (r) => r.ok,
        () => false,
      ),
    (ok) => ok,
    30_000,
    `prometheus ready\n${log}`,
  );
  return 'http://127.0.0.1:19090';
}

describe('longhaul schedule', { timeout: 120_000 }, () => {
  it('two peers, three rounds (at least 5 s, so Prometheus scrapes while it serves): one test at a time, tagged results, /metrics, and a real Prometheus reading them', async (t) => {
    const dir = tmpDir(t);
    const data = path.join(dir, 'results');
    const mine = await loadTrust();
    const [a, b] = await pairedListeners(t, mine, ['sched-a', 'sched-b'], mine, false);
    const peers = [`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`];
    // Prometheus first, scraping the port the schedule will serve (its targets are read at start-up).
    const metricsPort = await freePort();
    const prom = existsSync(PROMETHEUS) ? await startPrometheus(t, dir, `127.0.0.1:${metricsPort}`) : null;
    const cli = startCli(t, ['schedule', '--every', '5s', '--name', 'lab', '-t', '0.5', '--rounds', '3', '--metrics', String(metricsPort), ...peers], dir, {
      LONGHAUL_DATA_DIR: data,
    });
    const url = (await until(
      () => /metrics at (http:\/\/\S+\/metrics)/.exec(cli.stdout())?.[1],
      (u) => u !== undefined,
      20_000,
      'the metrics URL',
    ))!;
    assert.equal(url, `http://127.0.0.1:${metricsPort}/metrics`, 'served on 127.0.0.1 when no address is given');

    // After the first round: both peers' figures, and the counter.
    const text = await until(
      () => fetch(url).then((r) => r.text()),
      (s) => (s.match(/^longhaul_runs_total\{/gm) ?? []).length >= 2,
      30_000,
      'both peers in /metrics',
    );
    for (const p of peers) {
      assert.match(text, new RegExp(`^longhaul_throughput_bits_per_second\\{schedule="lab",peer="${p}",direction="to-peer"\\} \\d`, 'm'));
      assert.match(text, new RegExp(`^longhaul_verdict_info\\{schedule="lab",peer="${p}",direction="to-peer",verdict="[a-z-]+",case="[a-z/-]+"\\} 1$`, 'm'));
      assert.match(text, new RegExp(`^longhaul_runs_total\\{schedule="lab",peer="${p}",outcome="ok",code=""\\} 1$`, 'm'));
      assert.match(text, new RegExp(`^longhaul_last_run_timestamp_seconds\\{schedule="lab",peer="${p}"\\} \\d{10}`, 'm'));
    }
    assert.match(text, /# EOF\n$/, 'OpenMetrics text');
    const res = await fetch(url.replace('/metrics', '/other'));
    assert.equal(res.status, 404, 'nothing but /metrics is served');

    if (prom) {
      const q = encodeURIComponent('longhaul_runs_total{schedule="lab",outcome="ok"}');
      const series = await until(
        () =>
          fetch(`${prom}/api/v1/query?query=${q}`)
            .then((r) => r.json() as Promise<{ data: { result: { metric: { peer: string } }[] } }>)
            .then((j) => j.data.result.map((s) => s.metric.peer).sort()),
        (s) => s.length === 2,
        20_000,
        'Prometheus has scraped both peers',
      );
      assert.deepEqual(series, [...peers].sort());
    } else t.diagnostic(`${PROMETHEUS} is not installed: the scrape by a real Prometheus was not tried (CI installs it)`);

    assert.equal(await cli.exited(40_000), 0, `stdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`);
    const rs = await results(data);
    assert.equal(rs.length, 6, `three rounds of two peers: ${rs.map((r) => r.startedAt).join(', ')}`);
    for (let i = 1; i < rs.length; i++) assert.ok(rs[i]!.startedAt >= rs[i - 1]!.endedAt, `run ${i + 1} started after run ${i} ended: never two at once`);
    const slots = rs.map((r) => r.schedule?.slot);
    assert.ok(rs.every((r) => r.schedule?.name === 'lab'));
    assert.equal(slots[0], slots[1], 'one round, one slot');
    assert.deepEqual([slots[2], slots[4]], [slots[0]! + 1, slots[0]! + 2], 'each round in the next slot, none doubled or missed');
    assert.equal(slots[3], slots[2]);
    // Round 2 waited for its slot's start ("Next round … at"), or, when round 1 overran into it, ran at once.
    assert.match(cli.stdout(), /ended: 6 of 6 tests complete/);
  });

  it('a peer busy with another controller is tried again with back-off, and its test then runs', async (t) => {
    const dir = tmpDir(t);
    const mine = await loadTrust();
    const [a] = await pairedListeners(t, mine, ['sched-busy'], mine, false);
    const peer = `127.0.0.1:${a!.port}`;
    // Another controller holds the peer for 4 s; the schedule's first try comes about 2 s into it.
    const other = startCli(t, ['run', peer, '-t', '4'], dir);
    await until(
      () => other.stdout(),
      (s) => /bit\/s/.test(s),
      20_000,
      'the other run under way',
    );
    const cli = startCli(t, ['schedule', '--every', '30s', '-t', '0.5', '--rounds', '1', peer], dir, { LONGHAUL_DATA_DIR: path.join(dir, 'r') });
    assert.equal(await cli.exited(40_000), 0, `stdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`);
    assert.match(cli.stdout(), /is busy with another controller: trying again in 1 s \(try 2\)/);
    assert.match(cli.stdout(), /ended: 1 of 1 tests complete/);
    assert.equal(await other.exited(20_000), 0);
  });

  it('killed mid-round and started again, it runs what the slot still owes and nothing twice', async (t) => {
    const dir = tmpDir(t);
    const data = path.join(dir, 'r');
    const mine = await loadTrust();
    const [a, b] = await pairedListeners(t, mine, ['sched-ra', 'sched-rb'], mine, false);
    const peers = [`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`];
    const args = ['schedule', '--every', '60s', '--name', 'restart', '-t', '0.5', '--rounds', '1', ...peers];
    const first = startCli(t, args, dir, { LONGHAUL_DATA_DIR: data });
    // Killed (no chance to clean up) once the first peer's test is saved and kept.
    await until(
      () => first.stdout(),
      (s) => new RegExp(`slot \\d+ ${peers[0]}: `).test(s),
      30_000,
      "the first peer's test",
    );
    first.killGroup();
    await first.exited(10_000).catch(() => null);
    const second = startCli(t, args, dir, { LONGHAUL_DATA_DIR: data });
    assert.equal(await second.exited(40_000), 0, `stdout: ${second.stdout()}\nstderr: ${second.stderr()}`);
    const rs = await results(data);
    const done = rs.map((r) => `${r.schedule?.slot} ${r.responder.address}`);
    assert.equal(new Set(done).size, done.length, `no peer ran a slot twice: ${done.join(', ')}`);
    const slotOfFirst = rs[0]!.schedule!.slot;
    if (rs.every((r) => r.schedule!.slot === slotOfFirst)) {
      // Restarted within the same slot: only the second peer was still owed.
      assert.equal(rs.length, 2, done.join(', '));
      assert.match(second.stdout(), /resuming after slot \d+/);
      assert.doesNotMatch(second.stdout(), new RegExp(`${peers[0]}: `), 'the first peer is not run again in its slot');
    } else t.diagnostic(`the restart fell in the next slot (${done.join(', ')}): each peer ran it once`);
  });
});
