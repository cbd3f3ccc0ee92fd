/**
 * The HTML report in a real browser: the seed run measured on the kernel WAN
 * harness (test/report/fixtures/seed-wan-result.json, from wan-advice.test.ts)
 * rendered to a file, opened from disk in Chromium with every network request
 * refused and JavaScript off, screenshotted, printed to PDF, and the PDF's
 * pages rendered to PNG with pdftoppm: test/e2e/screenshots/html-report*.png.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { REPO } from '../helpers/processes.js';
import { browserMissing, CHROMIUM, SCREENSHOTS } from './browser.js';

const PDFTOPPM = '/usr/bin/pdftoppm';
const skip = browserMissing() ?? (existsSync(PDFTOPPM) ? false : `${PDFTOPPM} is not installed (apt-get install poppler-utils)`);
const seed = JSON.parse(readFileSync(path.join(REPO, 'test', 'report', 'fixtures', 'seed-wan-result.json'), 'utf8')) as LonghaulResult;

describe('HTML report in Chromium (no network, no script)', { skip, timeout: 90_000 }, () => {
  it('opens from disk, shows the verdict, advice, what-if and charts, and prints to PDF', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-html-'));
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      timeout: 20_000,
    });
    try {
      const html = formatHtmlReport(seed);
      assert.doesNotMatch(html, /<script|<link |<img |@import|url\(/i, 'nothing to fetch, nothing to run');
      const file = path.join(dir, 'report.html');
      await writeFile(file, html);
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
      assert.deepEqual(requests, [], 'the report asked for nothing over the network');
      const answer = await page.locator('[data-answer]').innerText();
      assert.match(answer, /^Result: [\d.]+ kbit\/s · window-limited/, 'the answer opens the report');
      assert.match(answer, /Change: .*650,\d{3} bytes/, 'the one change, with the window that fills the path');
      const folded = await page.locator('body').innerText();
      assert.doesNotMatch(folded, /Total Throughput\(Mbit\/s\)/, 'the detail is folded under Explain');
      await page.locator('[data-explain] > summary').click();
      const text = await page.locator('body').innerText();
      assert.match(text, /wall-clock aggregate/);
      assert.match(text, /per-stream sum/);
      assert.match(text, /Window-limited/, 'the verdict with its label (contract/verdict-labels.ts)');
      assert.match(text, /net\.ipv4\.tcp_rmem/);
      assert.match(text, /1,300,\d{3} bytes/);
      assert.match(text, /the window that fills the path, 1 stream × 650,\d{3}-byte window.*about 3\.8 Mbit\/s/);
      assert.match(text, /Total Throughput\(Mbit\/s\)/, 'the PetaBumps log is in it');
      assert.ok((await page.locator('svg').count()) >= 4, 'what-if, throughput, RTT and cwnd charts');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'html-report.png'), fullPage: true });
      const pdf = path.join(dir, 'report.pdf');
      await page.pdf({ path: pdf, format: 'A4', printBackground: false });
      for (const f of await readdir(SCREENSHOTS)) if (f.startsWith('html-report-pdf')) await rm(path.join(SCREENSHOTS, f));
      execFileSync(PDFTOPPM, ['-png', '-r', '60', pdf, path.join(SCREENSHOTS, 'html-report-pdf')], { timeout: 30_000 });
      const pages = (await readdir(SCREENSHOTS)).filter((f) => f.startsWith('html-report-pdf') && f.endsWith('.png'));
      assert.ok(pages.length >= 2 && pages.length <= 12, `${pages.length} PDF pages`);
      await context.close();
    } finally {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
