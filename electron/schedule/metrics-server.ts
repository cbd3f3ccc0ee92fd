/**
 * `/metrics` over HTTP for Prometheus (schedule-metrics.ts): GET only, one path, OpenMetrics text.
 * It listens where it is told; the CLI's default is 127.0.0.1 (another address must be asked for:
 * the figures name the peers and their rates). Nothing else is served.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0];
    if (url !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: Longhaul serves /metrics only\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('the metrics could not be rendered\n'),
    );
  });
  // A scraper that holds a connection open must not keep the process from ending.
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, port)));
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
