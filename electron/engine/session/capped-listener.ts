/**
 * The listening socket of the responder and of the iperf3 server: one copy of
 * what both promise a stranger's flood (docs/security.md):
 * - a cap on every connection held at once (`server.maxConnections`): Node
 *   closes a connection past it at accept, before any of our code runs, and
 *   tells us ('drop'), which we report as every other turned-away connection;
 * - an accept that fails after listen() (EMFILE under a flood) is reported,
 *   never thrown: without an 'error' listener Node would end the process;
 * - whatever one connection's handling hits ends that connection only (the
 *   app's main process hosts both servers).
 */
import net from 'node:net';

/** The cap on connections held at once: a run's 2 × 128 data connections, its control connection, the pending pool and its reserve fit well below it. */
const MAX_CONNECTIONS = 1024;

interface CappedListenerOptions {
  /** Connections held at once; more are closed at accept (default MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Each accepted connection; a rejection ends that connection. */
  onConnection(socket: net.Socket): Promise<void>;
  /** A connection turned away or a failed accept: `peer` is `address:port`, or `listener`. */
  onRejected(peer: string, why: string): void;
}

/** A server with the cap and the guards above; call listenOn() to bind it. */
export function cappedServer(o: CappedListenerOptions): net.Server {
  const server = net.createServer((s) => {
    o.onConnection(s).catch((err: unknown) => {
      o.onRejected(`${s.remoteAddress}:${s.remotePort}`, `dropped after an internal error: ${(err as Error)?.message ?? String(err)}`);
      s.destroy();
    });
  });
  server.maxConnections = o.maxConnections ?? MAX_CONNECTIONS;
  // Node has closed it already; say so, as for every connection turned away.
  server.on('drop', (d?: { remoteAddress?: string; remotePort?: number }) =>
    o.onRejected(`${d?.remoteAddress}:${d?.remotePort}`, `over the cap of ${server.maxConnections} connections held at once: closed at accept`),
  );
  server.on('error', (err) => {
    if (server.listening) o.onRejected('listener', `accept failed: ${err.message}`);
  });
  return server;
}

/** Start listening; resolves with the bound address (port 0 picks a free port), rejects when the bind fails. */
export function listenOn(server: net.Server, port: number, host: string | undefined): Promise<net.AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as net.AddressInfo);
    });
  });
}
