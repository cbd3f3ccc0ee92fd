/**
 * The preload (sandboxed, context-isolated): exposes `window.longhaul`, the
 * named actions of the contract, and nothing else — never `ipcRenderer`.
 * Built into one CommonJS file (dist/preload/preload.cjs) because a sandboxed
 * preload can only `require('electron')`.
 */
import { EVENTS, INVOKES, type ApiError, type EventName, type InvokeName } from './contract/api.js';
import type { ElectronPreload } from './electron-types.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload is CommonJS and may only require('electron')
const { contextBridge, ipcRenderer } = require('electron') as ElectronPreload;

type Envelope = { ok: true; res: unknown } | { ok: false; error: ApiError };

const api: Record<string, unknown> = {};
for (const name of Object.keys(INVOKES) as InvokeName[]) {
  api[name] = async (req: unknown): Promise<unknown> => {
    const r = (await ipcRenderer.invoke(INVOKES[name], req ?? null)) as Envelope;
    // A plain object keeps its `code` across the context bridge; an Error would lose it.
    if (!r.ok) throw { code: r.error.code, message: r.error.message };
    return r.res;
  };
}
for (const name of Object.keys(EVENTS) as EventName[]) {
  api[name] = (cb: (payload: unknown) => void): (() => void) => {
    const listener = (_e: unknown, payload: unknown): void => cb(payload);
    ipcRenderer.on(EVENTS[name], listener);
    return () => ipcRenderer.removeListener(EVENTS[name], listener);
  };
}
contextBridge.exposeInMainWorld('longhaul', api);
