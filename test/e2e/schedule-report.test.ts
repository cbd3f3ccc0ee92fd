/**
 * The HTML report's schedule view in a real browser: six seeded hours of a schedule
 * (test/helpers/schedule-seed.ts) through `longhaul history --schedule lab --format html`,
 * opened from disk in Chromium with every network request refused and JavaScript off,
 * read and screenshotted: test/e2e/screenshots/46-schedule-report.png.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { startCli } from '../helpers/cli-process.js';
import { HOSTILE_HOST, seedScheduleLab } from '../helpers/schedule-seed.js';
import { browserMissing, CHROMIUM, SCREENSHOTS } from './browser.js';

describe('HTML schedule view in Chromium (no network, no script)', { skip: browserMissing() ?? false, timeout: 90_000 }, () => {
  it('opens from disk with one chart per peer and direction, the hostile name as text', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-schedule-html-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const data = path.join(dir, 'results');
    await seedScheduleLab(data, new Date());
    const file = path.join(dir, 'lab.html');
    const cli = startCli(t, ['history', '--schedule', 'lab', '-f', 'html', '-o', file], dir, { LONGHAUL_DATA_DIR: data });
    assert.equal(await cli.exited(20_000), 0, cli.stderr());
    assert.doesNotMatch(await readFile(file, 'utf8'), /<script|<link |<img |@import/i, 'nothing to fetch, nothing to run');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      timeout: 20_000,
    });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        requests.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      await page.goto(`file://${file}`, { timeout: 15_000 });
      assert.deepEqual(requests, [], 'the page asked for nothing over the network');
      assert.equal(await page.locator('section[data-chart] svg').count(), 4, 'lab-pc, branch-pc both ways, the hostile peer');
      const headings = await page.locator('section[data-chart] h3').allInnerTexts();
      assert.equal(headings[3], `${HOSTILE_HOST} (10.0.0.66:5211), this PC → peer`, 'the host name reads as the file wrote it, as text');
      assert.equal(await page.locator('script').count(), 0);
      const box = await page.locator('section[data-chart] svg').first().boundingBox();
      assert.ok(box && box.width > 600 && box.height > 200, `the chart is drawn at a readable size (${JSON.stringify(box)})`);
      const scroll = await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');
      assert.equal(scroll, true, 'no sideways scroll');
      await page.screenshot({ path: path.join(SCREENSHOTS, '46-schedule-report.png'), fullPage: true });
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
