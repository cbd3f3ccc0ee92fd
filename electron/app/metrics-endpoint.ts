/**
 * The app's /metrics for Prometheus (issue 39; `longhaul schedule --metrics` on the command line):
 * the setting kept in the data folder (`schedules/metrics.json`, replaced whole) and the server it
 * asks for. The server runs only while this app runs the PC's schedules (one runner per data
 * folder: a `longhaul schedule run` elsewhere serves its own); it listens on 127.0.0.1 unless the
 * user chose "other PCs too". A port in use or a setting file broken by hand is said on the screen,
 * never thrown at the schedules: they go on without /metrics.
 */
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_METRICS_SETTING, type MetricsSetting, type MetricsView } from '../contract/schedule-app.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { serveMetrics } from '../schedule/metrics-server.js';
import type { ScheduleMetrics } from '../schedule/schedule-metrics.js';
import { describeError, LonghaulError } from '../util/errors.js';

const FILE_SCHEMA = 'longhaul.schedule-metrics/1';
/** Where each choice listens. */
const HOST = { local: '127.0.0.1', network: '0.0.0.0' } as const;

export const metricsSettingSchema = z
  .object({
    enabled: z.boolean(),
    listen: z.enum(['local', 'network']),
    // 0 (any free port) is refused: Prometheus's scrape config names a port that must not change.
    port: z.number().int().min(1, 'a port from 1 to 65535').max(65535, 'a port from 1 to 65535'),
  })
  .strict() satisfies z.ZodType<MetricsSetting>;
const fileSchema = metricsSettingSchema.extend({ schema: z.literal(FILE_SCHEMA) });

export function metricsSettingFile(resultsDir: string): string {
  return path.join(resultsDir, 'schedules', 'metrics.json');
}

/** The kept setting, the default when none is kept. Throws LonghaulError (LH_ERR_BAD_ARGUMENT naming the file, LH_ERR_IO). */
async function readMetricsSetting(resultsDir: string): Promise<MetricsSetting> {
  const file = metricsSettingFile(resultsDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_METRICS_SETTING;
    throw new LonghaulError('LH_ERR_IO', `cannot read ${file}: ${describeError(err).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `${file} is not JSON (${(err as Error).message}): save the setting again, or delete the file`);
  }
  const r = fileSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `${file} is not a ${FILE_SCHEMA} setting${where}: ${issue?.message ?? 'invalid'}`);
  }
  return { enabled: r.data.enabled, listen: r.data.listen, port: r.data.port };
}

/** The server the setting asks for, started and stopped as the setting and this app's hold on the schedules change. */
export class MetricsEndpoint {
  private setting: MetricsSetting = DEFAULT_METRICS_SETTING;
  private server: { url: string; close(): Promise<void> } | null = null;
  private problem: string | null = null;
  /** One change at a time (a save while the app starts). */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly resultsDir: string,
    private readonly metrics: ScheduleMetrics,
  ) {}

  view(): MetricsView {
    return { setting: this.setting, url: this.server?.url ?? null, problem: this.problem };
  }

  /** Read the kept setting and serve as it says while `runningHere` (this app runs the schedules); never throws. */
  load(runningHere: string | null): Promise<MetricsView> {
    return this.serial(async () => {
      try {
        this.setting = await readMetricsSetting(this.resultsDir);
      } catch (err) {
        await this.stop();
        this.problem = describeError(err).message;
        return this.view();
      }
      return this.apply(runningHere);
    });
  }

  /** Keep a new setting (checked; refused with LH_ERR_BAD_ARGUMENT) and serve as it says. */
  save(setting: MetricsSetting, runningHere: string | null): Promise<MetricsView> {
    return this.serial(async () => {
      const r = metricsSettingSchema.safeParse(setting);
      if (!r.success) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `not a /metrics setting: ${r.error.issues[0]?.message ?? 'invalid'}`);
      const file = metricsSettingFile(this.resultsDir);
      await mkdir(path.dirname(file), { recursive: true });
      await replaceFileAtomicallyAsync(file, JSON.stringify({ schema: FILE_SCHEMA, ...r.data }, null, 2) + '\n');
      this.setting = r.data;
      return this.apply(runningHere);
    });
  }

  close(): Promise<void> {
    return this.serial(() => this.stop()).then(() => undefined);
  }

  /** `notRunning`: null while this app runs the schedules, else who does. */
  private async apply(notRunning: string | null): Promise<MetricsView> {
    await this.stop();
    this.problem = null;
    if (!this.setting.enabled) return this.view();
    if (notRunning !== null) {
      this.problem = `not served by this app: ${notRunning}`;
      return this.view();
    }
    const host = HOST[this.setting.listen];
    try {
      const s = await serveMetrics(this.metrics, host, this.setting.port);
      // On every address: the URL another PC's Prometheus would use names this PC as the network knows it.
      const shown = this.setting.listen === 'local' ? host : os.hostname();
      this.server = { url: `http://${shown}:${s.address.port}/metrics`, close: () => s.close() };
    } catch (err) {
      // metrics-server.ts says it as for --metrics; the screen's words name the field instead.
      this.problem = describeError(err).message.replace(/^--metrics /, 'port ');
    }
    return this.view();
  }

  private async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    await s?.close();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
