/**
 * The sweep HTML report in a real browser: a real loopback sweep (3 windows ×
 * 2 stream counts × 2 repeats, test/report/fixtures/sweep-loopback.json, each
 * run's full result left out) and a one-setting sweep built from it, rendered,
 * opened from disk in Chromium with every network request refused and
 * JavaScript off, screenshotted, printed to PDF and the pages rendered with
 * pdftoppm: test/e2e/screenshots/sweep-report*.png.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { chromium } from 'playwright-core';
import { formatSweepHtml } from '../../electron/report/sweep-html.js';
import { parseSweep } from '../../electron/sweep/sweep-file.js';
import { REPO } from '../helpers/processes.js';
import { browserMissing, CHROMIUM, SCREENSHOTS } from './browser.js';

const PDFTOPPM = '/usr/bin/pdftoppm';
const skip = browserMissing() ?? (existsSync(PDFTOPPM) ? false : `${PDFTOPPM} is not installed (apt-get install poppler-utils)`);
const FIXTURE = path.join(REPO, 'test', 'report', 'fixtures', 'sweep-loopback.json');

describe('sweep HTML report in Chromium (no network, no script)', { skip, timeout: 90_000 }, () => {
  it('opens from disk with the plan, the heat map, the cell table with both conventions, and prints to PDF', async () => {
    const sweep = parseSweep(JSON.parse(readFileSync(FIXTURE, 'utf8')), FIXTURE);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-sweep-html-'));
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      timeout: 20_000,
    });
    try {
      const html = formatSweepHtml(sweep);
      assert.doesNotMatch(html, /<script|<link |<img |@import|url\(/i, 'nothing to fetch, nothing to run');
      const file = path.join(dir, 'sweep.html');
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
      const text = await page.locator('body').innerText();
      assert.match(text, /This PC \(loopback\): window × streams/);
      assert.match(text, /6 cells × 2 repeats/);
      assert.match(text, /wall-clock aggregate, median/);
      assert.match(text, /per-stream sum, median/);
      // Every cell's median as the runner computed it, in the table and in the heat map.
      for (const c of sweep.cells) {
        const m = c.bitsPerSecond!.median;
        assert.ok(text.includes(`${(m / 1e9).toFixed(2)} Gbit/s`) || text.includes(`${(m / 1e6).toFixed(2)} Mbit/s`), `cell ${c.cell} median ${m}`);
      }
      assert.equal(await page.locator('svg rect[fill^="hsl("]').count(), 6, 'six coloured heat cells');
      assert.equal(await page.locator('table').nth(2).locator('tbody tr').count(), 12, 'every run listed');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'sweep-report.png'), fullPage: true });
      const pdf = path.join(dir, 'sweep.pdf');
      await page.pdf({ path: pdf, format: 'A4', printBackground: false });
      for (const f of await readdir(SCREENSHOTS)) if (f.startsWith('sweep-report-pdf')) await rm(path.join(SCREENSHOTS, f));
      execFileSync(PDFTOPPM, ['-png', '-r', '60', pdf, path.join(SCREENSHOTS, 'sweep-report-pdf')], { timeout: 30_000 });
      const pages = (await readdir(SCREENSHOTS)).filter((f) => f.startsWith('sweep-report-pdf') && f.endsWith('.png'));
      assert.ok(pages.length >= 1 && pages.length <= 6, `${pages.length} PDF pages`);

      // One swept setting: bars with whiskers instead of a heat map.
      const oneDim = { ...sweep, plan: { ...sweep.plan, dimensions: sweep.plan.dimensions.filter((d) => d.name === 'windowBytes') } };
      const oneRuns = sweep.runs.filter((r) => r.settings.params.streams === 1).map((r) => ({ ...r, cell: Math.floor(r.cell / 2) }));
      const bars = parseSweep({ ...oneDim, runs: oneRuns }, 'one-dimension');
      await writeFile(file, formatSweepHtml(bars));
      await page.goto(`file://${file}`, { timeout: 15_000 });
      assert.equal(await page.locator('svg path[stroke="#1b1f24"]').count(), 3, 'one whisker per window');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'sweep-report-bars.png'), fullPage: true });
      await context.close();
    } finally {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
