/**
 * The /metrics HTTP server's own thread (metrics-server.ts starts it): it serves the last text the
 * main thread sent, so a scrape is answered in the same few milliseconds while the main thread
 * starts a test, saves a result or collects garbage (issue 39: "/metrics stays under 50 ms").
 *
 *   main ──{ text }──► this thread ──GET /metrics──► Prometheus
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

interface Init {
  host: string;
  port: number;
  contentType: string;
}
type FromMain = { type: 'text'; text: string } | { type: 'close' };
export type FromMetricsThread = { type: 'listening'; address: AddressInfo } | { type: 'error'; code: string; message: string };

const init = workerData as Init;
const port = parentPort;
let text = '';

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
  res.writeHead(200, { 'content-type': init.contentType }).end(req.method === 'HEAD' ? undefined : text);
});
// A scraper that holds a connection open must not keep the server from closing.
server.keepAliveTimeout = 5000;
server.headersTimeout = 10_000;
server.once('error', (err: NodeJS.ErrnoException) =>
  port?.postMessage({ type: 'error', code: err.code ?? '', message: err.message } satisfies FromMetricsThread),
);
server.listen(init.port, init.host, () => port?.postMessage({ type: 'listening', address: server.address() as AddressInfo } satisfies FromMetricsThread));

port?.on('message', (m: FromMain) => {
  if (m.type === 'text') text = m.text;
  else {
    server.closeAllConnections();
    server.close(() => port.close());
  }
});
