/**
 * The API the screens use: Electron's preload puts it on `window.longhaul`;
 * in a browser (`longhaul ui`) it is built over the WebSocket, with the token
 * from the page's URL.
 */
import type { LonghaulApi } from '../../../electron/contract/api.js';
import { connectWs } from './ws-client.js';

declare global {
  interface Window {
    longhaul?: LonghaulApi;
  }
}

export function getApi(): LonghaulApi {
  if (window.longhaul) return window.longhaul;
  const token = new URLSearchParams(location.search).get('token') ?? '';
  return connectWs(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
}

export const api: LonghaulApi = getApi();
