/**
 * Browser mode: the renderer and the contract on 127.0.0.1 only. The URL it
 * returns carries a random token; without it the page loads but can do nothing.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import type { ExportOutcome } from '../contract/api.js';
import { AppBackend } from '../app/backend.js';
import type { ExportFile } from '../app/exporters.js';
import { serveStatic } from './static-files.js';
import { WsBridge } from './ws-bridge.js';

export interface UiServerOptions {
  port: number;
  dataDir: string;
  /** Where the built renderer is (tests may point elsewhere). */
  rendererDir?: string;
}

export interface UiServer {
  url: string;
  port: number;
  backend: AppBackend;
  close(): Promise<void>;
}

/** In a browser the export is a download the page performs. */
async function downloadExport(file: ExportFile): Promise<ExportOutcome> {
  return { kind: 'download', ...file };
}

export async function startUiServer(o: UiServerOptions): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  const backend = new AppBackend({ mode: 'browser', dataDir: o.dataDir, saveExport: downloadExport });
  let port = 0;
  const bridge = new WsBridge(backend, token, () => port);
  const server = http.createServer((req, res) => {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      // Refuse other Host names: a DNS-rebinding page must not read this one.
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('misdirected request\n');
      return;
    }
    void serveStatic(req, res, port, o.rendererDir);
  });
  server.on('upgrade', (req, socket, head) => bridge.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as net.AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    backend,
    close: () =>
      (closing ??= (async () => {
        bridge.close();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await backend.close();
      })()),
  };
}
