/**
 * The desktop app's main process, paper-thin: one window, IPC routed to the
 * same `AppBackend` that browser mode uses. Security: context isolation,
 * sandbox, no Node in the page, CSP (renderer/index.html), no navigation or
 * new windows, and IPC from any other sender is refused.
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { AppBackend } from './app/backend.js';
import { resultsDir } from './app/data-dir.js';
import { INVOKES, EVENTS, type InvokeName } from './contract/api.js';
import type { BrowserWindowLike, ElectronMain, IpcMainInvokeEvent } from './electron-types.js';
import { describeError } from './util/errors.js';
import { applyGcSchedule } from './util/gc-schedule.js';
import { startMemoryLog } from './util/memory-log.js';

const { app, BrowserWindow, ipcMain, dialog, session } = createRequire(import.meta.url)('electron') as ElectronMain;
const PAGE = fileURLToPath(new URL('../ui/index.html', import.meta.url));
const PRELOAD = fileURLToPath(new URL('../preload/preload.cjs', import.meta.url));
const PAGE_URL = new URL('../ui/index.html', import.meta.url).href;

// The engine runs in this process: the same heap schedule and memory log as the CLI's (util/gc-schedule.ts).
applyGcSchedule();
startMemoryLog('app');

let win: BrowserWindowLike | null = null;

function setupWindow(): BrowserWindowLike {
  const w = new BrowserWindow({
    width: 1366,
    height: 768,
    minWidth: 1024,
    minHeight: 640,
    title: 'Longhaul',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      // Middle-click would open links in new windows, around the window-open handler.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  w.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  w.webContents.on('will-navigate', (e) => e.preventDefault());
  w.on('closed', () => (win = null));
  void w.loadFile(PAGE);
  return w;
}

/** Only our own window, showing our own page, may call the engine. */
function fromOwnWindow(e: IpcMainInvokeEvent): boolean {
  return win !== null && e.sender.id === win.webContents.id && (e.senderFrame?.url ?? '').startsWith(PAGE_URL);
}

function setupIpc(backend: AppBackend): void {
  for (const name of Object.keys(INVOKES) as InvokeName[]) {
    ipcMain.handle(INVOKES[name], async (e, req) => {
      if (!fromOwnWindow(e)) return { ok: false, error: { code: 'LH_ERR_BAD_ARGUMENT', message: 'IPC from an unknown sender is ignored' } };
      try {
        return { ok: true, res: await backend.call(name, req) };
      } catch (err) {
        return { ok: false, error: describeError(err) };
      }
    });
  }
  backend.hub.subscribe((name, payload) => {
    if (win && !win.webContents.isDestroyed()) win.webContents.send(EVENTS[name], payload);
  });
}

async function bootstrap(): Promise<void> {
  await app.whenReady();
  // The UI needs no camera, microphone, notifications, geolocation…: every permission request is denied.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  const backend = new AppBackend({
    mode: 'electron',
    dataDir: resultsDir(process.env, app.getPath('userData')),
    saveExport: async (file) => {
      if (!win) return { kind: 'cancelled' };
      const r = await dialog.showSaveDialog(win, { defaultPath: file.fileName });
      if (r.canceled || !r.filePath) return { kind: 'cancelled' };
      await writeFile(r.filePath, file.text);
      return { kind: 'saved', path: r.filePath };
    },
  });
  setupIpc(backend);
  win = setupWindow();
  app.on('window-all-closed', () => void backend.close().finally(() => app.quit()));
}

void bootstrap();
