/**
 * End to end, as a user: `longhaul ui` and a `longhaul listen` responder as
 * real processes, Debian's Chromium clicking through Start → Partner → Link →
 * Test → Run (2 streams, chart growing) → Stop → Results → JSON export →
 * History, then the waiting screen serving a CLI run. Screenshots of every
 * screen go to test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { BIN, forkLonghaul, stopChild } from '../helpers/processes.js';
import { browserMissing, launchBrowser, shot, type Browser } from './browser.js';

const skip = browserMissing();

async function chartPoints(page: Page): Promise<number> {
  return Number(await page.getByTestId('live-chart').getAttribute('data-points'));
}

/** Poll the chart's point count until it is at least `min` (bounded). */
async function waitForPoints(page: Page, min: number, ms = 15_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const n = await chartPoints(page).catch(() => 0);
    if (n >= min) return n;
    if (Date.now() > deadline) throw new Error(`the chart did not reach ${min} points within ${ms} ms (has ${n})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('browser mode, end to end', { skip: skip ?? false, timeout: 120_000 }, () => {
  let dataDir: string;
  let ui: ChildProcess | undefined;
  let responder: ChildProcess | undefined;
  let browser: Browser | undefined;
  let url: string;
  let responderPort: number;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-ui-data-'));
    const u = await forkLonghaul<{ type: 'ui'; url: string }>(['ui', '--no-open', '--port', '0'], 'ui', { LONGHAUL_DATA_DIR: dataDir });
    ui = u.child;
    url = u.msg.url;
    const r = await forkLonghaul<{ type: 'listening'; port: number }>(['listen', '--port', '0', '--bind', '127.0.0.1'], 'listening');
    responder = r.child;
    responderPort = r.msg.port;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await Promise.all([stopChild(ui), stopChild(responder)]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('goes from Start to an exported JSON that matches the run', async () => {
    const page = browser!.page;
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await shot(page, '01-start');

    // Keyboard only: Tab to the first big choice and press Enter.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const text = await page.evaluate<string>('document.activeElement?.textContent ?? ""');
      if (text.includes('Run a test from this PC')) break;
    }
    await page.keyboard.press('Enter');
    await page.getByLabel('Partner address').waitFor();

    // Pair: an address nobody listens on is refused, the responder is reachable.
    await page.getByLabel('Partner address').fill(`127.0.0.1:1`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('[data-verdict="refused"]').waitFor();
    await page.getByLabel('Partner address').fill(`127.0.0.1:${responderPort}`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('[data-verdict="reachable"]').waitFor();
    await shot(page, '02-pair');
    await page.getByRole('button', { name: 'Next: the link' }).click();

    // Link: the satellite preset and a 64K window make the seed's mistake visible.
    await page.getByRole('button', { name: /Geostationary satellite/ }).click();
    await page.getByLabel('Window per stream', { exact: true }).fill('64K');
    await page.getByTestId('ceiling').filter({ hasText: '403.3 kbit/s' }).waitFor(); // 65,536 B × 8 / 1.3 s
    assert.equal(await page.getByTestId('bdp').innerText(), '634.8 KiB'); // 4 Mbit/s × 1.3 s / 8 = 650,000 B
    await page.getByText('smaller than the BDP').waitFor();
    await shot(page, '03-link');
    await page.getByLabel('Window per stream', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Next: the test' }).click();

    // Test: inline validation, then 2 streams, 30 s, 0.2 s samples.
    await page.getByLabel('Parallel streams').fill('0');
    await page.getByText('a whole number from 1 to 128').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Start the test' }).isDisabled(), true);
    await page.getByLabel('Parallel streams').fill('2');
    await page.getByLabel('Duration', { exact: true }).fill('30');
    await page.getByLabel('Sample interval').fill('0.2');
    await page.getByLabel('Distance (optional)').fill('4000km');
    await shot(page, '04-test');
    await page.getByRole('button', { name: 'Start the test' }).click();

    // Run: the chart's data grows while the run goes on; never re-created, just fed.
    await page.getByRole('heading', { name: 'Running' }).waitFor();
    const first = await waitForPoints(page, 3);
    const second = await waitForPoints(page, first + 2);
    assert.ok(second > first, `chart grew from ${first} to ${second} points`);
    assert.match(await page.getByTestId('rate-now').innerText(), /bit\/s$/);
    await shot(page, '05-run');
    await page.getByRole('button', { name: 'Stop (keep results)' }).click();

    // Results: partial (stopped), both conventions named.
    await page.getByRole('heading', { name: 'Results (partial)' }).waitFor({ timeout: 20_000 });
    await page.getByText('Wall-clock aggregate').waitFor();
    await page.getByText('Per-stream sum').waitFor();
    await page.getByText('Distance × throughput').waitFor();
    await shot(page, '06-results');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '06-results-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    const shownBytes = Number(await page.getByTestId('total-bytes').getAttribute('data-bytes'));

    // Export JSON as a download; it is the run: same file as History's, same numbers as shown.
    assert.equal(await page.getByRole('button', { name: 'CSV' }).isDisabled(), true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'JSON' }).click()]);
    const file = await download.path();
    const exported = JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
    assert.equal(exported.schema, 'longhaul.result/1');
    assert.equal(exported.params.streams, 2);
    assert.equal(exported.params.intervalSeconds, 0.2);
    assert.equal(exported.streams.length, 2);
    assert.equal(exported.partial, true);
    assert.match(exported.partialReason ?? '', /stopped by the user/);
    assert.equal(exported.total.bytes, shownBytes);
    assert.ok(exported.total.bytes > 0, 'bytes moved');
    assert.ok(exported.intervals.length >= second - 1, `${exported.intervals.length} intervals for ${second} chart points`);
    assert.equal(exported.responder.address, `127.0.0.1:${responderPort}`);
    const stored = (await readdir(dataDir)).filter((n) => n.endsWith('.json'));
    assert.equal(stored.length, 1);
    assert.deepEqual(JSON.parse(await readFile(path.join(dataDir, stored[0]!), 'utf8')), exported);

    // History lists it and reopens it.
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    const row = page.getByTestId('history').locator('tbody tr');
    await row.first().waitFor();
    assert.equal(await row.count(), 1);
    await shot(page, '07-history');
    await row.first().getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'Results (partial)' }).waitFor();
    assert.deepEqual(consoleErrors, []);
  });

  it('runs "Both on this PC" to a complete result with the app\'s own responder', async () => {
    const page = browser!.page;
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('1');
    await page.getByLabel('Duration', { exact: true }).fill('1');
    await page.getByLabel('Sample interval').fill('0.25');
    await page.getByLabel('Distance (optional)').fill('');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: 'Results', exact: true }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('partial').count(), 0);
    assert.ok(Number(await page.getByTestId('total-bytes').getAttribute('data-bytes')) > 0);
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    await page.getByTestId('history').locator('tbody tr').nth(2).waitFor(); // the controller's and the local responder's view, plus the first run
  });

  it('keeps the chart cheap with 128 streams at 10 samples/s', async () => {
    const page = browser!.page;
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('128');
    await page.getByLabel('Buffer per write/read').fill('16K');
    await page.getByLabel('Duration', { exact: true }).fill('3');
    await page.getByLabel('Sample interval').fill('0.1');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await waitForPoints(page, 10, 20_000).catch(async (err: Error) => {
      await shot(page, '11-run-128-streams-FAILED');
      throw new Error(`${err.message}; the page said: ${(await page.locator('main').innerText()).slice(0, 600)}`);
    });
    await page.getByText('showing the 8 fastest of 128 streams').waitFor();
    const maxDrawMs = Number(await page.getByTestId('live-chart').getAttribute('data-max-draw-ms'));
    await shot(page, '11-run-128-streams');
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    console.log(`# 128 streams at 0.1 s: slowest chart redraw ${maxDrawMs} ms`);
    // Redraws happen at most 4 times a second (every 250 ms); each must fit in that budget even on a
    // loaded 2-core box where the 128 streams run too (measured 10-130 ms here), or the page falls behind.
    assert.ok(maxDrawMs > 0 && maxDrawMs < 250, `slowest redraw ${maxDrawMs} ms`);
  });

  it('waits for a partner and shows a CLI run live', async () => {
    const page = browser!.page;
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Wait for a partner/ }).click();
    await page.getByLabel('TCP port to listen on').fill('0');
    await page.getByRole('button', { name: 'Start waiting' }).click();
    const pairing = page.getByTestId('pairing');
    await pairing.waitFor();
    const port = Number(/TCP port (\d+)/.exec(await pairing.innerText())?.[1]);
    assert.ok(port > 0, 'the waiting screen shows the port');
    await shot(page, '08-waiting');

    const cli = fork(BIN, ['run', `127.0.0.1:${port}`, '-t', '3', '-i', '0.2', '-P', '2'], { stdio: 'ignore', execArgv: [] });
    try {
      await page.getByRole('heading', { name: 'A test is running' }).waitFor({ timeout: 15_000 });
      await waitForPoints(page, 3);
      await shot(page, '09-waiting-running');
      const code = await new Promise<number | null>((r) => cli.once('exit', r));
      assert.equal(code, 0);
      await page.getByRole('heading', { name: 'Last run (this PC\'s view)' }).waitFor({ timeout: 15_000 });
      await shot(page, '10-waiting-done');
    } finally {
      await stopChild(cli);
    }
    await page.getByRole('button', { name: 'Stop waiting' }).click();
  });
});
