/**
 * The small part of Electron's API that main.ts and preload.ts use, typed
 * here because the `electron` package (and its types) cannot be installed on
 * the Node 20 machines this project is built on (Electron 45 needs Node 22;
 * its binary download is blocked). Names and shapes are Electron's own.
 */

export interface IpcMainInvokeEvent {
  sender: { id: number };
  senderFrame: { url: string } | null;
}

interface WebContentsLike {
  id: number;
  send(channel: string, payload: unknown): void;
  setWindowOpenHandler(fn: () => { action: 'deny' }): void;
  on(event: 'will-navigate', fn: (e: { preventDefault(): void }, url: string) => void): void;
  isDestroyed(): boolean;
}

export interface BrowserWindowLike {
  webContents: WebContentsLike;
  loadFile(path: string): Promise<void>;
  on(event: 'closed', fn: () => void): void;
}

export interface ElectronMain {
  app: {
    whenReady(): Promise<void>;
    getPath(name: 'userData'): string;
    on(event: 'window-all-closed' | 'before-quit', fn: () => void): void;
    quit(): void;
  };
  BrowserWindow: new (o: {
    width: number;
    height: number;
    minWidth: number;
    minHeight: number;
    title: string;
    show?: boolean;
    webPreferences: {
      preload: string;
      contextIsolation: true;
      sandbox: true;
      nodeIntegration: false;
      webSecurity: true;
      /** Comma-separated Blink features to switch off (we switch off `Auxclick`). */
      disableBlinkFeatures?: string;
    };
  }) => BrowserWindowLike;
  ipcMain: {
    handle(channel: string, fn: (e: IpcMainInvokeEvent, req: unknown) => Promise<unknown>): void;
  };
  session: {
    defaultSession: {
      setPermissionRequestHandler(fn: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
    };
  };
  dialog: {
    showSaveDialog(win: BrowserWindowLike, o: { defaultPath: string }): Promise<{ canceled: boolean; filePath?: string }>;
  };
}

export interface ElectronPreload {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: {
    invoke(channel: string, req: unknown): Promise<unknown>;
    on(channel: string, fn: (e: unknown, payload: unknown) => void): void;
    removeListener(channel: string, fn: (e: unknown, payload: unknown) => void): void;
  };
}
