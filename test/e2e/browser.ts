/** Debian's Chromium through playwright-core: never a downloaded browser, a fresh profile each time. */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { forkLonghaul, REPO, stopChild } from '../helpers/processes.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.join(REPO, 'test', 'e2e', 'screenshots');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Why the browser cannot run here, or null. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed (apt-get install chromium)`;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'longhaul-chromium-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1366, height: 768 },
    // Scrollbars as a desktop window has them (headless hides them by default): a 1024 px window then lays out in
    // 1009 px, the width a user sees.
    ignoreDefaultArgs: ['--hide-scrollbars'],
    acceptDownloads: true,
    timeout: 20_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** `longhaul ui` on a fresh data folder, and Chromium: what a browser-mode test drives. */
interface UiSession {
  dataDir: string;
  url: string;
  ui: ChildProcess;
  browser: Browser;
  page: Page;
}

/**
 * For the tests of one describe: `longhaul ui --no-open --port 0` on a fresh data folder (named from `prefix`)
 * and a browser, started in `before`, stopped (the UI within `stopMs`) and the folder removed in `after`.
 * `env` is added to the UI's environment (e.g. its own `LONGHAUL_TRUST_DIR`).
 * Returns the session's getter.
 */
export function uiSession(prefix: string, o: { stopMs?: number; env?: NodeJS.ProcessEnv } = {}): () => UiSession {
  let session: UiSession | undefined;
  let dataDir: string | undefined;
  let ui: ChildProcess | undefined;
  let browser: Browser | undefined;
  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
    const u = await forkLonghaul<{ type: 'ui'; url: string }>(['ui', '--no-open', '--port', '0'], 'ui', { LONGHAUL_DATA_DIR: dataDir, ...o.env });
    ui = u.child;
    browser = await launchBrowser();
    session = { dataDir, url: u.msg.url, ui, browser, page: browser.page };
  });
  after(async () => {
    await browser?.close();
    await stopChild(ui, o.stopMs);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return () => {
    assert.ok(session, 'the UI and the browser started');
    return session;
  };
}

/** The window widths every screen is laid out for: a 1024×768 laptop (or a half-screen window) and a 1366×768 one. */
const WIDTHS = [1024, 1366] as const;

/**
 * When the page is wider than its window (it would scroll sideways): one line naming the widths and the deepest
 * elements that reach past the right edge, so the culprit is named; [] when it fits.
 */
export async function sidewaysScroll(page: Page, where: string): Promise<string[]> {
  const m = await page.evaluate<{ scroll: number; client: number; past: string[] }>(`(() => {
    const root = document.documentElement;
    const client = root.clientWidth;
    const past = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= client + 0.5) continue;
      if ([...el.children].some((c) => c.getBoundingClientRect().right > client + 0.5)) continue;
      past.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') + ' to ' + Math.round(r.right) + ' px');
    }
    return { scroll: root.scrollWidth, client, past: past.slice(0, 5) };
  })()`);
  return m.scroll <= m.client ? [] : [`${where}: the page is ${m.scroll} px wide in a ${m.client} px window (${m.past.join(', ')})`];
}

/**
 * The page at each width in `WIDTHS`: a screenshot NAME-WIDTH.png of each, and whether it scrolls sideways there
 * (the problems found, [] when none); the viewport is left at the last width.
 */
export async function shotAtWidths(page: Page, name: string, height = 768): Promise<string[]> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height });
    await shot(page, `${name}-${width}`);
    problems.push(...(await sidewaysScroll(page, `${name} (${width} px)`)));
  }
  return problems;
}

/** The live chart's point count now (0 while it is not on the screen). */
async function chartPoints(page: Page): Promise<number> {
  return Number(
    await page
      .getByTestId('live-chart')
      .getAttribute('data-points', { timeout: 1_000 })
      .catch(() => 0),
  );
}

/** Poll the chart's point count until it is at least `min` (bounded). */
export async function waitForPoints(page: Page, min: number, ms = 15_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const n = await chartPoints(page);
    if (n >= min) return n;
    if (Date.now() > deadline) throw new Error(`the chart did not reach ${min} points within ${ms} ms (has ${n})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Full-page PNG into test/e2e/screenshots/NAME.png. */
/** Open the Results screen's "Explain" fold (the detail behind the answer), as a user clicks it; a no-op when open. */
export async function openExplain(page: Page): Promise<void> {
  const fold = page.getByTestId('explain');
  await fold.waitFor({ state: 'attached', timeout: 10_000 });
  if ((await fold.getAttribute('open')) === null) await fold.locator(':scope > summary').click();
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
