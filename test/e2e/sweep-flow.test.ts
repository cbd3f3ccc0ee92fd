/**
 * End to end, as a user: `longhaul ui` as a real process, Debian's Chromium
 * planning a 2 × 2 loopback sweep (window OS default/64K × 1/2 streams,
 * 1 repeat, 1 s runs), checking the plan line, starting it, watching the
 * table fill in and the heat map draw, stopping after the first run,
 * resuming (only the missing runs are made), exporting CSV and JSON (checked
 * against the file on disk), finding it in History; then a one-setting sweep
 * drawn as bars with min–max whiskers. Screenshots of every state go to
 * test/e2e/screenshots/2x-sweep-*.png.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from 'playwright-core';
import { pendingRuns, runKey } from '../../electron/contract/sweep-plan.js';
import type { SweepFile } from '../../electron/contract/sweep.js';
import { formatSweepHtml } from '../../electron/report/sweep-html.js';
import { browserMissing, shot, uiSession } from './browser.js';

const skip = browserMissing();

async function download(page: Page, button: string, scope: Page | Locator = page): Promise<string> {
  const [d] = await Promise.all([page.waitForEvent('download'), scope.getByRole('button', { name: button, exact: true }).click()]);
  return readFile(await d.path(), 'utf8');
}

/** Rows of the cell table with at least one done run. */
async function measuredRows(page: Page): Promise<number> {
  return page.getByTestId('sweep-table').locator('tbody tr:not([data-runs="0"])').count();
}

/** Poll until `cond` holds (bounded); on timeout, a screenshot and the page's text say where it stood. */
async function until(page: Page, what: string, cond: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > deadline) {
      await shot(page, `2x-sweep-FAILED`);
      throw new Error(`${what} did not happen within ${ms} ms; the page said: ${(await page.locator('main').innerText()).slice(0, 900)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function sweepFiles(dataDir: string): Promise<SweepFile[]> {
  const dir = path.join(dataDir, 'sweeps');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as SweepFile));
}

describe('sweeps in browser mode, end to end', { skip: skip ?? false, timeout: 150_000 }, () => {
  const session = uiSession('longhaul-sweep-ui-', { stopMs: 12_000 });

  it('plans a 2 × 2 loopback sweep, stops it after the first run, resumes only what is missing, exports it', async () => {
    const page = session().page;
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(session().url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: 'Sweep', exact: true }).click();
    await page.getByRole('heading', { name: /^Sweep: many runs/ }).waitFor();

    // Plan: inline errors first, then the plan line from the contract's own duration rule.
    await page.getByLabel('Parallel streams').fill('0, 2');
    await page.getByText('0: a whole number from 1 to 128').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Start the sweep' }).isDisabled(), true);
    await page.getByLabel('TCP window per stream end').fill('OS default, 64K');
    await page.getByLabel('Parallel streams').fill('1, 2');
    await page.getByLabel('Seconds per run').fill('1');
    await page.getByLabel('Repeats per cell').fill('1');
    await page.getByLabel('Pause between runs').fill('0');
    await page.getByLabel('Order').selectOption('sequential');
    assert.equal(await page.getByTestId('sweep-plan').innerText(), '4 cells × 1 repeat × 1 s = 4 s (4 runs)');
    await page.getByText('swept: 2 values').first().waitFor();
    await shot(page, '20-sweep-plan');

    // Start; the table fills in; Stop once the first run is in (the second is then cut short: partial, not counted).
    await page.getByRole('button', { name: 'Start the sweep' }).click();
    await page.locator('[data-testid="sweep-status"][data-state="running"]').waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('sweep-plan-line').innerText(), '4 cells × 1 repeat × 1 s = 4 s (4 runs)');
    await until(page, 'the first run', async () => (await measuredRows(page)) >= 1);
    assert.match(await page.getByRole('heading', { level: 1 }).innerText(), /^Sweep: This PC \(loopback\): window × streams$/);
    await shot(page, '21-sweep-running');
    await page.getByRole('button', { name: 'Stop the sweep' }).click();
    await page.locator('[data-testid="sweep-status"][data-state="interrupted"]').waitFor({ timeout: 20_000 });
    const doneBefore = await measuredRows(page);
    assert.ok(doneBefore >= 1 && doneBefore < 4, `${doneBefore} cells measured before the stop`);
    const heat = page.getByTestId('sweep-chart');
    assert.equal(await heat.getAttribute('data-kind'), 'heatmap');
    assert.equal(Number(await heat.getAttribute('data-measured')), doneBefore);
    assert.match(
      await page.getByTestId('sweep-status').innerText(),
      new RegExp(`^${doneBefore} of 4 runs done · Stopped\\. Resume runs only what is missing\\.`),
    );
    await shot(page, '22-sweep-stopped');

    const [stopped] = await sweepFiles(session().dataDir);
    assert.ok(stopped, 'the sweep file is written');
    assert.equal(stopped.complete, false);
    const doneKeys = new Set(stopped.runs.filter((r) => r.status === 'done').map(runKey));
    assert.equal(doneKeys.size, doneBefore);
    const owed = pendingRuns(stopped.plan, stopped.runs).length;
    assert.equal(owed, 4 - doneBefore);

    // Resume: only the missing runs; the table completes, the heat map has every cell.
    await page.getByRole('button', { name: `Resume (${owed} runs left)` }).click();
    await page
      .locator('[data-testid="sweep-status"][data-state="running"]')
      .waitFor({ timeout: 15_000 })
      .catch(() => undefined);
    await until(page, "the resumed sweep's end", async () => (await page.getByTestId('sweep-status').getAttribute('data-state')) === 'complete', 45_000);
    assert.equal(await measuredRows(page), 4);
    assert.equal(Number(await heat.getAttribute('data-measured')), 4);
    assert.match(await page.getByTestId('sweep-status').innerText(), /^4 of 4 runs done · Complete/);
    const rows = await page.getByTestId('sweep-table').locator('tbody tr').allInnerTexts();
    for (const r of rows) assert.match(r, /[\d.]+ [GMk]bit\/s[\s\S]*1\/1/, `row: ${r}`);
    assert.match(rows[0]!, /OS default\s+1 stream/);
    assert.match(rows[3]!, /64\.0 KiB\s+2 streams/);
    await shot(page, '23-sweep-complete');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '23-sweep-complete-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    const [file] = await sweepFiles(session().dataDir);
    assert.equal(file!.id, stopped.id, 'resumed into the same file');
    assert.equal(file!.complete, true);
    const resumed = file!.runs.slice(stopped.runs.length);
    assert.equal(resumed.length, owed, 'the resume made only the missing runs');
    assert.ok(
      resumed.every((r) => !doneKeys.has(runKey(r))),
      'no cell done before the stop ran again',
    );
    assert.equal(new Set(file!.runs.filter((r) => r.status === 'done').map(runKey)).size, 4);

    // Exports: the JSON is the file on disk, the CSV has a row per run and per cell.
    assert.deepEqual(JSON.parse(await download(page, 'JSON')), file);
    const csv = parse(await download(page, 'CSV'), { columns: true, bom: true }) as Record<string, string>[];
    assert.equal(csv.filter((r) => r.row_type === 'run').length, file!.runs.length);
    const cellRows = csv.filter((r) => r.row_type === 'cell');
    assert.deepEqual(
      cellRows.map((r) => r.runs),
      ['1', '1', '1', '1'],
    );
    assert.deepEqual(
      cellRows.map((r) => Number(r.received_mbit_per_s_median)),
      file!.cells.map((c) => Number((c.bitsPerSecond!.median / 1e6).toFixed(6))),
    );
    // The HTML report: the text `longhaul report --format html` writes for this file.
    assert.equal(await download(page, 'HTML report'), formatSweepHtml(file!));

    // History lists it (complete, 4/4), re-exports and reopens it.
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.getByTestId('sweep-history').locator('tbody tr');
    await row.first().waitFor();
    assert.equal(await row.count(), 1);
    assert.match(await row.first().innerText(), /This PC \(loopback\): window × streams\s+4\s+4\/4\s+complete/);
    assert.deepEqual(JSON.parse(await download(page, 'JSON', row.first())), file);
    assert.match(await download(page, 'HTML', row.first()), /^<!doctype html>[\s\S]*Longhaul sweep: This PC \(loopback\): window × streams/);
    await shot(page, '24-history-sweeps');
    await row.first().getByRole('button', { name: 'Open' }).click();
    await page.locator('[data-testid="sweep-chart"][data-measured="4"]').waitFor();
    assert.deepEqual(consoleErrors, []);
  });

  it('draws a one-setting sweep as bars with min–max whiskers', async () => {
    const page = session().page;
    await page.getByRole('button', { name: 'New sweep' }).click();
    await page.getByLabel('TCP window per stream end').fill('OS default');
    await page.getByLabel('Parallel streams').fill('1, 2, 4');
    await page.getByLabel('Seconds per run').fill('0.5');
    await page.getByLabel('Repeats per cell').fill('2');
    await page.getByLabel('Pause between runs').fill('0');
    assert.equal(await page.getByTestId('sweep-plan').innerText(), '3 cells × 2 repeats × 0.5 s = 3 s (6 runs)');
    await page.getByRole('button', { name: 'Start the sweep' }).click();
    await until(page, "the bar sweep's end", async () => (await page.getByTestId('sweep-status').getAttribute('data-state')) === 'complete', 60_000);
    const chart = page.getByTestId('sweep-chart');
    assert.equal(await chart.getAttribute('data-kind'), 'bars');
    assert.equal(Number(await chart.getAttribute('data-measured')), 3);
    assert.match(await page.getByTestId('sweep-table').innerText(), /2\/2[\s\S]*2\/2[\s\S]*2\/2/);
    await shot(page, '25-sweep-bars');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '25-sweep-bars-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('measures the path once, after its first run, and lists it under the table', async () => {
    const page = session().page;
    await page.getByRole('button', { name: 'New sweep' }).click();
    await page.getByLabel('TCP window per stream end').fill('OS default, 64K');
    await page.getByLabel('Parallel streams').fill('1');
    await page.getByLabel('Seconds per run').fill('1');
    await page.getByLabel('Repeats per cell').fill('1');
    await page.getByLabel('Pause between runs').fill('0');
    await page.getByTestId('sweep-measure-path').locator('input').check();
    await shot(page, '26-sweep-measure-plan');
    await page.getByRole('button', { name: 'Start the sweep' }).click();
    // Two 1 s runs and one tuned run (on loopback its receiver's rate settles within its ~2 s measured span).
    await until(page, "the measured sweep's end", async () => (await page.getByTestId('sweep-status').getAttribute('data-state')) === 'complete', 60_000);
    const items = page.getByTestId('sweep-measured-paths').locator('li');
    assert.equal(await items.count(), 1, 'one path: no emulator, direct, forward');
    assert.match(await items.first().innerText(), /^Path \(no emulator, controller → responder\), measured after run 1: .*bit\/s of payload/);
    await shot(page, '26-sweep-measured');
  });
});
