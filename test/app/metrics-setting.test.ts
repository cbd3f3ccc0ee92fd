/**
 * The app's setting to serve /metrics (electron/app/metrics-endpoint.ts through the backend's API),
 * against a paired responder on 127.0.0.1 and a real HTTP client: off by default; turned on, it
 * serves OpenMetrics on 127.0.0.1 with each schedule's last test and its interval (the gauge the
 * "no test for 3 intervals" alert reads), which goes when the schedule is paused and with every other
 * series of it when it is deleted; a port in use is said, not thrown; the setting is kept across a
 * restart of the app; a second app on the same data folder does not serve and says why; "other PCs"
 * listens on every address; a file broken by hand is named; a bad port is refused.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import { metricsSettingFile } from '../../electron/app/metrics-endpoint.js';
import type { Events } from '../../electron/contract/api.js';
import type { ScheduleListing } from '../../electron/contract/schedule-app.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';

const PLAN = { schema: 'longhaul.schedule/1', name: 'lab', every: '1h', peers: [] as string[], test: { seconds: 0.5, intervalSeconds: 0.5 } };

/** A port free now on 127.0.0.1 (the setting takes no 0: a scrape config names a fixed port). */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function scrape(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** Poll /metrics until `pred` holds, bounded: the text is renewed after each change, on the server's own thread. */
async function scrapeUntil(url: string, what: string, pred: (text: string) => boolean): Promise<string> {
  return within(
    (async () => {
      for (;;) {
        const { text } = await scrape(url);
        if (pred(text)) return text;
        await new Promise((r) => setTimeout(r, 100));
      }
    })(),
    10_000,
    what,
  );
}

describe('the app serves /metrics as its setting says', { timeout: 120_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  let responder: Responder;
  let port: number;
  const updates: ScheduleListing[] = [];
  const app = (): AppBackend =>
    new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-metrics-setting-'));
    backend = app();
    ({ responder, port } = await startResponder({ security: await responderPairedWith(await backend.trust()) }));
    backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onSchedules') updates.push((payload as Events['onSchedules']['payload']).listing);
    });
  });
  after(async () => {
    await backend.close();
    await responder.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('off by default; on: the last test and the interval per schedule; paused: no interval; deleted: nothing of it', async () => {
    const first = await backend.call('listSchedules', null);
    assert.deepEqual(first.metrics, { setting: { enabled: false, listen: 'local', port: 9464 }, url: null, problem: null });

    const metricsPort = await freePort();
    const on = await backend.call('setScheduleMetrics', { enabled: true, listen: 'local', port: metricsPort });
    assert.equal(on.metrics.url, `http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(on.metrics.problem, null);
    const empty = await scrape(on.metrics.url!);
    assert.equal(empty.status, 200);
    assert.match(empty.type ?? '', /^application\/openmetrics-text/);
    assert.match(empty.text, /# EOF\n$/);

    const peer = `127.0.0.1:${port}`;
    await backend.call('saveSchedule', { plan: { ...PLAN, peers: [peer] }, editing: null });
    await within(
      (async () => {
        while (!updates.some((u) => u.schedules[0]?.lastRuns.length === 1)) await new Promise((r) => setTimeout(r, 50));
      })(),
      30_000,
      'the first round',
    );
    const text = await scrapeUntil(on.metrics.url!, 'the test on /metrics', (t) => t.includes('longhaul_throughput_bits_per_second{'));
    assert.match(text, new RegExp(`longhaul_throughput_bits_per_second\\{schedule="lab",peer="${peer}",direction="to-peer"\\} \\d`));
    assert.match(text, /longhaul_schedule_interval_seconds\{schedule="lab"\} 3600\n/, 'every 1h: 3600 s');
    assert.match(text, new RegExp(`longhaul_runs_total\\{schedule="lab",peer="${peer}",outcome="ok",code=""\\} 1\\n`));

    await backend.call('pauseSchedule', { name: 'lab', paused: true });
    const paused = await scrapeUntil(on.metrics.url!, 'no interval while paused', (t) => !t.includes('longhaul_schedule_interval_seconds{'));
    assert.match(paused, /longhaul_last_run_timestamp_seconds\{schedule="lab"/, 'what it measured stays while paused');

    await backend.call('deleteSchedule', { name: 'lab' });
    await scrapeUntil(on.metrics.url!, 'nothing of a deleted schedule', (t) => !t.includes('schedule="lab"'));
  });

  it('a port in use is said and the old port closed; the setting survives a restart; a second app does not serve and says why', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      const before = (await backend.call('listSchedules', null)).metrics.url!;
      const clash = await backend.call('setScheduleMetrics', { enabled: true, listen: 'local', port: taken });
      assert.equal(clash.metrics.url, null);
      assert.match(clash.metrics.problem ?? '', new RegExp(`port ${taken} is in use by another program`));
      await assert.rejects(scrape(before), 'the port served before is closed');
    } finally {
      await new Promise((r) => holder.close(r));
    }

    const metricsPort = await freePort();
    await backend.call('setScheduleMetrics', { enabled: true, listen: 'local', port: metricsPort });
    await assert.rejects(backend.call('setScheduleMetrics', { enabled: true, listen: 'local', port: 0 }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('setScheduleMetrics', { enabled: true, listen: 'anywhere', port: 9464 } as never), { code: 'LH_ERR_BAD_ARGUMENT' });

    // A second app on the same data folder: the first runs the schedules, so it alone serves.
    const second = app();
    try {
      const listed = await second.call('listSchedules', null);
      assert.notEqual(listed.notRunning, null);
      assert.equal(listed.metrics.url, null);
      assert.match(listed.metrics.problem ?? '', /^not served by this app: /);
    } finally {
      await second.close();
    }

    // A restart: the kept setting serves at once.
    await backend.close();
    backend = app();
    const again = await backend.call('listSchedules', null);
    assert.equal(again.metrics.url, `http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal((await scrape(again.metrics.url!)).status, 200);
  });

  it('"other PCs too" listens on every address; a setting file broken by hand is named', async () => {
    const metricsPort = await freePort();
    const wide = await backend.call('setScheduleMetrics', { enabled: true, listen: 'network', port: metricsPort });
    assert.equal(wide.metrics.url, `http://${os.hostname()}:${metricsPort}/metrics`);
    // Every address includes loopback: read it there (tests stay on this PC).
    assert.equal((await scrape(`http://127.0.0.1:${metricsPort}/metrics`)).status, 200);

    await backend.close();
    await writeFile(metricsSettingFile(dir), '{ "schema": "longhaul.schedule-metrics/1", "enabled": true, "listen": "local", "port": "x" }');
    backend = app();
    const broken = (await backend.call('listSchedules', null)).metrics;
    assert.equal(broken.url, null);
    assert.ok(broken.problem?.includes(metricsSettingFile(dir)) && /at port/.test(broken.problem), broken.problem ?? '');
    await assert.rejects(scrape(`http://127.0.0.1:${metricsPort}/metrics`), 'nothing serves after a restart with a broken file');
  });
});
