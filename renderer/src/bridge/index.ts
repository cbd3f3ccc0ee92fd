/**
 * The API the screens use: Electron's preload puts it on `window.longhaul`;
 * in a browser (`longhaul ui`) it is built over the WebSocket, let in by the
 * session cookie the launch URL was traded for.
 */
import type { LonghaulApi } from '../../../electron/contract/api.js';
import { connectWs } from './ws-client.js';

declare global {
  interface Window {
    longhaul?: LonghaulApi;
  }
}

function getApi(): LonghaulApi {
  if (window.longhaul) return window.longhaul;
  // The session cookie the launch URL was traded for goes with the upgrade request (ui-session.ts).
  return connectWs(`ws://${location.host}/ws`);
}

export const api: LonghaulApi = getApi();
