/**
 * Browser mode: the renderer and the contract on 127.0.0.1 only. The URL it
 * returns carries a one-time token, traded on first load for a session cookie
 * (ui-session.ts); without the cookie nothing is served.
 */
import http from 'node:http';
import type net from 'node:net';
import type { ExportOutcome } from '../contract/api.js';
import { AppBackend } from '../app/backend.js';
import type { ExportFile } from '../app/exporters.js';
import { serveStatic } from './static-files.js';
import { LinkDoor } from './link-door.js';
import { UiSession } from './ui-session.js';
import { WsBridge } from './ws-bridge.js';

interface UiServerOptions {
  port: number;
  dataDir: string;
  /** Where the built renderer is (tests may point elsewhere). */
  rendererDir?: string;
  /** Where to leave the key `longhaul ui --link` asks this server for a new link with (link-door.ts); absent: it cannot be asked. */
  linkDoorDir?: string;
}

export interface UiServer {
  /** The first link (one browser, once). */
  url: string;
  /** Another link, for another browser (also single-use): what `longhaul ui` prints on request. */
  newLink(): string;
  port: number;
  backend: AppBackend;
  close(): Promise<void>;
}

/** In a browser the export is a download the page performs. */
async function downloadExport(file: ExportFile): Promise<ExportOutcome> {
  return { kind: 'download', ...file };
}

export async function startUiServer(o: UiServerOptions): Promise<UiServer> {
  const backend = new AppBackend({ mode: 'browser', dataDir: o.dataDir, saveExport: downloadExport });
  let port = 0;
  const session = new UiSession(() => port);
  const bridge = new WsBridge(backend, session, () => port);
  const door = o.linkDoorDir ? new LinkDoor() : null;
  const server = http.createServer((req, res) => {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      // Refuse other Host names: a DNS-rebinding page must not read this one.
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('misdirected request\n');
      return;
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname === '/link') {
      // `longhaul ui --link` of the same user: a new single-use link, for the key only that user can read.
      if (door?.admits(req)) res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`${session.newLink()}\n`);
      else res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Longhaul: not a link request from this user\n');
      return;
    }
    const access = session.pageAccess(req);
    if (access.kind === 'home') {
      res.writeHead(303, { Location: '/', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).end();
      return;
    }
    if (access.kind === 'exchange') {
      // 303 to the bare address: the token leaves the address bar and the history.
      res.writeHead(303, { 'Set-Cookie': access.setCookie, Location: '/', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).end();
      return;
    }
    if (access.kind === 'refused') {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(`Longhaul: ${access.why}\n`);
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
  // Without the key file (an unwritable trust folder) only `--link` is lost: it then finds no running UI and says so.
  if (door && o.linkDoorDir) await door.open(o.linkDoorDir, port).catch(() => undefined);
  let closing: Promise<void> | null = null;
  return {
    url: session.newLink(),
    newLink: () => session.newLink(),
    port,
    backend,
    close: () =>
      (closing ??= (async () => {
        door?.close();
        bridge.close();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await backend.close();
      })()),
  };
}
