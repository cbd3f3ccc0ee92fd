/**
 * `/metrics` over HTTP for Prometheus (schedule-metrics.ts): GET only, one path, OpenMetrics text.
 * It listens where it is told; the CLI's default is 127.0.0.1 (another address must be asked for:
 * the figures name the peers and their rates). Nothing else is served. The server runs on a thread
 * of its own (metrics-http.ts) with a copy of the text renewed after every test: a scrape is never
 * held up by what the main thread is doing (starting a test took it 150-330 ms on this machine).
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { FromMetricsThread } from './metrics-http.js';
import type { ScheduleMetrics } from './schedule-metrics.js';
import { ArgumentError } from '../util/errors.js';

interface MetricsServer {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/** Why /metrics could not listen, in words, naming the flag that chose the address. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const why =
    err.code === 'EADDRINUSE'
      ? `port ${port} is in use by another program: pick another, or 0 for any free one`
      : err.code === 'EADDRNOTAVAIL'
        ? `${host} is not an address of this PC`
        : err.code === 'EACCES'
          ? `this user may not listen on port ${port}`
          : (err.code ?? err.message);
  return new ArgumentError(`--metrics ${where}: ${why}`, '--metrics');
}

export async function serveMetrics(metrics: ScheduleMetrics, host: string, port: number): Promise<MetricsServer> {
  const worker = new Worker(new URL('./metrics-http.js', import.meta.url), { workerData: { host, port, contentType: metrics.registry.contentType } });
  const first = await new Promise<FromMetricsThread>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the /metrics thread ended (${code}) before it listened`)));
  });
  worker.removeAllListeners();
  if (first.type === 'error') {
    await worker.terminate();
    throw listenError(Object.assign(new Error(first.message), { code: first.code }), host, port);
  }
  const stop = metrics.watch((text) => worker.postMessage({ type: 'text', text }));
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // Not a reason to keep the process alive on its own (the CLI's schedule holds it; a closed schedule ends it).
  worker.unref();
  return {
    address: first.address,
    close: async () => {
      stop();
      // Held while it closes: an unref'd thread's exit does not keep a waiting process alive.
      worker.ref();
      worker.postMessage({ type: 'close' });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
