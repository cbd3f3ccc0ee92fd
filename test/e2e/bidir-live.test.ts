/**
 * End to end, as a user: `longhaul ui`, Chromium, "Both on this PC", direct, a run "Both at once":
 * the live chart's total is both directions together while it runs. Before the fix, the receiver
 * view's total took one side's count minus the other's at every sample: a zigzag between about
 * +2× the rate and minus tens of Gbit/s (test/renderer/lib/live-series.test.ts has the numbers).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, waitForPoints, uiSession, openExplain } from './browser.js';

describe('browser mode: a bidir run on this PC', { skip: browserMissing() ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-ui-bidir-');

  it('the live total is both directions together, never below zero, in either view', async () => {
    const page = session().page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(session().url);
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('1');
    // Long enough that the points never race the run's end on a loaded box; stopped once seen.
    await page.getByLabel('Duration', { exact: true }).fill('20');
    await page.getByLabel('Sample interval').fill('0.25');
    await page.getByLabel('Direction').selectOption('bidir');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: 'Running' }).waitFor({ timeout: 15_000 });
    const chart = page.getByTestId('live-chart');
    for (const view of ['Receiver view', 'Sender view']) {
      await page.getByRole('button', { name: view }).click();
      const n = await waitForPoints(page, 8, 20_000);
      const min = Number(await chart.getAttribute('data-min-rate'));
      assert.ok(min >= 0, `${view}: the total's lowest point is ${min} bit/s over ${n} points`);
      await shot(page, `43-bidir-run-${view.split(' ')[0]!.toLowerCase()}`);
    }
    await page.getByRole('button', { name: 'Stop (keep results)' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    await openExplain(page);
    assert.deepEqual(errors, []);
  });
});
