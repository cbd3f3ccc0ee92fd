/**
 * Browser mode's `window.longhaul`: the same `LonghaulApi`, built from the
 * contract's tables, carried over a WebSocket to `longhaul ui`. Calls wait for
 * the socket; a lost socket fails pending calls with `LH_ERR_PEER_GONE`.
 */
import {
  EVENTS,
  INVOKES,
  type ApiError,
  type EventName,
  type InvokeName,
  type LonghaulApi,
  type WireMessage,
  type WireRequest,
} from '../../../electron/contract/api.js';

/** An error from the host, with its stable code. */
export class ApiCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function connectWs(url: string): LonghaulApi {
  const ws = new WebSocket(url);
  const opened = new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener(
      'close',
      () =>
        reject(
          new ApiCallError(
            'LH_ERR_PEER_GONE',
            'the Longhaul UI server is not reachable: is `longhaul ui` still running, and did you open the URL it printed, in this browser?',
          ),
        ),
      { once: true },
    );
  });
  opened.catch(() => undefined);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: ApiCallError) => void }>();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let nextId = 1;

  ws.addEventListener('message', (ev: MessageEvent<string>) => {
    const m = JSON.parse(ev.data) as WireMessage;
    if (m.kind === 'event') {
      for (const cb of listeners.get(m.name) ?? []) cb(m.payload);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.res);
    else p.reject(new ApiCallError(m.error.code, m.error.message));
  });
  ws.addEventListener('close', () => {
    for (const p of pending.values()) p.reject(new ApiCallError('LH_ERR_PEER_GONE', 'the connection to `longhaul ui` closed'));
    pending.clear();
  });

  async function call(name: InvokeName, req: unknown): Promise<unknown> {
    await opened;
    const id = nextId++;
    const msg: WireRequest = { kind: 'call', id, name, req: req ?? null };
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify(msg));
    });
  }

  const api: Record<string, unknown> = {};
  for (const name of Object.keys(INVOKES) as InvokeName[]) api[name] = (req: unknown) => call(name, req);
  for (const name of Object.keys(EVENTS) as EventName[]) {
    api[name] = (cb: (p: unknown) => void) => {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(cb);
      return () => set.delete(cb);
    };
  }
  return api as LonghaulApi;
}

/** The message of anything thrown by the API, with its code when it has one. */
export function errorText(err: unknown): string {
  const e = err as Partial<ApiError>;
  return e && typeof e.message === 'string' ? (e.code ? `${e.message} (${e.code})` : e.message) : String(err);
}
