/**
 * The contract over a WebSocket, for browser mode. A socket is accepted only
 * with this server's session cookie (ui-session.ts), from a page this server
 * served (Origin and Host are 127.0.0.1:port), so another site in the same
 * browser cannot drive the engine. Calls are validated by the backend like IPC calls.
 *
 * Backpressure: live samples are cumulative counters, so when a socket's send
 * buffer is over `MAX_BUFFERED_BYTES` a sample is dropped (the chart loses
 * resolution, never bytes); every other event and every reply is always sent.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, Events, WireMessage, WireRequest } from '../contract/api.js';
import type { AppBackend } from '../app/backend.js';
import { isInvokeName } from '../app/request-schemas.js';
import { describeError } from '../util/errors.js';
import type { UiSession } from './ui-session.js';

const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Largest frame a page may send (calls are small JSON). */
const MAX_PAYLOAD_BYTES = 64 * 1024;
const DROPPABLE: ReadonlySet<EventName> = new Set(['onSample', 'onResponderSample']);

export class WsBridge {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  droppedSamples = 0;

  constructor(
    private readonly backend: AppBackend,
    private readonly session: UiSession,
    private readonly port: () => number,
  ) {
    this.wss.on('connection', (ws) => this.onConnection(ws));
  }

  /** Handle an HTTP upgrade: accept it on /ws with the session cookie, origin and host; 403 otherwise. */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const why = this.refusal(req);
    if (why) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  /** Why an upgrade request is refused, or null when it is fine. */
  refusal(req: http.IncomingMessage): string | null {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return 'unknown path';
    if (!this.session.hasCookie(req)) return 'no session: open the URL longhaul ui printed';
    const self = [`127.0.0.1:${this.port()}`, `localhost:${this.port()}`];
    if (!self.includes(req.headers.host ?? '')) return 'wrong Host header';
    const origin = req.headers.origin;
    if (origin !== undefined && !self.some((h) => origin === `http://${h}`)) return 'foreign origin';
    return null;
  }

  /** Close every socket (server shutdown). */
  close(): void {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private onConnection(ws: WebSocket): void {
    const unsubscribe = this.backend.hub.subscribe(<K extends EventName>(name: K, payload: Events[K]['payload']) => {
      if (DROPPABLE.has(name) && ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        this.droppedSamples++;
        return;
      }
      send(ws, { kind: 'event', name, payload });
    });
    ws.on('message', (data, isBinary) => void this.onMessage(ws, data.toString(), isBinary));
    ws.once('close', unsubscribe);
    ws.on('error', () => ws.terminate());
  }

  private async onMessage(ws: WebSocket, text: string, isBinary: boolean): Promise<void> {
    let msg: WireRequest;
    try {
      msg = JSON.parse(text) as WireRequest;
    } catch {
      return ws.close(1003, 'frames must be JSON');
    }
    if (isBinary || msg?.kind !== 'call' || !Number.isSafeInteger(msg.id) || !isInvokeName(msg.name)) {
      return ws.close(1003, 'not a contract call');
    }
    try {
      const res = await this.backend.call(msg.name, msg.req);
      send(ws, { kind: 'reply', id: msg.id, ok: true, res });
    } catch (err) {
      send(ws, { kind: 'reply', id: msg.id, ok: false, error: describeError(err) });
    }
  }
}

function send(ws: WebSocket, m: WireMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
}
