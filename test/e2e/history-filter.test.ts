/**
 * End to end, as a user: `longhaul ui` on a data folder holding two schedules' runs and runs started by hand
 * (test/helpers/history-seed.ts), Debian's Chromium on the History screen: the count, the filter by schedule,
 * by hand and by time, the CSV of the filtered runs (downloaded, parsed back), the retention rule previewed
 * and kept (the oldest run's file gone from the folder), and no sideways scroll at 1024×768.
 * Screenshots: test/e2e/screenshots/40-history-*.png.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { seedHistory, seededId } from '../helpers/history-seed.js';
import { browserMissing, shot, uiSession } from './browser.js';

const skip = browserMissing();

/** `YYYY-MM-DDTHH:MM` in this PC's local time, as a datetime-local input takes it. */
function localInput(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

async function rowTexts(page: Page): Promise<string[]> {
  return page.getByTestId('history').locator('tbody tr').allInnerTexts();
}

/** Wait until the count line says `text` (the listing answered the filter). */
async function countIs(page: Page, text: RegExp): Promise<void> {
  await page.getByTestId('history-count').filter({ hasText: text }).waitFor({ timeout: 10_000 });
}

describe('History: filter, CSV export and retention in browser mode', { skip: skip ?? false, timeout: 120_000 }, () => {
  const session = uiSession('longhaul-history-ui-');

  it('filters by schedule and time, exports the filtered runs as CSV, keeps a retention rule', async () => {
    const { page, url, dataDir } = session();
    const now = new Date();
    await seedHistory(dataDir, now);
    await page.goto(url);
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    await countIs(page, /^9 runs \(of 9\)$/);
    assert.equal((await rowTexts(page)).length, 9);

    // One schedule: its five runs, each row saying so.
    await page.getByTestId('history-schedule').selectOption({ label: 'lab' });
    await countIs(page, /^5 runs \(of 9\)$/);
    const lab = await rowTexts(page);
    assert.equal(lab.length, 5);
    assert.ok(
      lab.every((r) => /\tlab\t/.test(r)),
      lab.join('\n'),
    );
    assert.ok(
      lab.some((r) => /window \/ receiver/.test(r)),
      'the --bidir run shows both verdicts',
    );
    await shot(page, '40-history-filter-schedule');

    // And a time range: from 70 minutes ago, the lab's last single run and its --bidir one.
    await page.getByTestId('history-from').fill(localInput(new Date(now.getTime() - 70 * 60_000)));
    await countIs(page, /^2 runs \(of 9\)$/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export these as CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^longhaul-history-lab-from-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.csv$/);
    const csv = parse(await readFile(await download.path(), 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    assert.deepEqual(
      csv.map((r) => [r.run_id, r.schedule, r.flow]),
      [
        [seededId(3), 'lab', 'controller_to_responder'],
        [seededId(4), 'lab', 'controller_to_responder'],
        [seededId(4), 'lab', 'responder_to_controller'],
      ],
    );
    await page
      .getByTestId('export-status')
      .filter({ hasText: /^Downloaded longhaul-history-lab-from-/ })
      .waitFor();

    // A range that ends before it starts is said, not sent.
    await page.getByTestId('history-to').fill(localInput(new Date(now.getTime() - 80 * 60_000)));
    await page.getByRole('alert').filter({ hasText: 'From must be before To' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Export these as CSV' }).isDisabled(), true);
    await page.getByTestId('history-to').fill('');
    await page.getByTestId('history-from').fill('');
    await page.getByTestId('history-schedule').selectOption({ label: 'Started by hand only' });
    await countIs(page, /^2 runs \(of 9\)$/);
    assert.ok((await rowTexts(page)).every((r) => /\tby hand\t/.test(r)));

    // The retention rule: the default said in words; a count previewed, then kept, removing the oldest run's file.
    await page.getByTestId('history-schedule').selectOption({ label: 'All runs' });
    await countIs(page, /^9 runs \(of 9\)$/);
    const keep = page.getByTestId('history-retention');
    assert.match(await keep.locator('summary').innerText(), /Scheduled runs older than 90 days are removed; runs started by hand are kept\./);
    await keep.locator('summary').click();
    await keep.getByLabel('All runs').check();
    await keep.getByLabel('Keep at most').check();
    await keep.getByLabel('Runs to keep').fill('8');
    await keep.getByTestId('retention-preview').filter({ hasText: 'Keeping it removes 1 run now (8 stay).' }).waitFor();
    await shot(page, '40-history-retention');
    await keep.getByRole('button', { name: 'Keep this rule' }).click();
    await keep.getByRole('status').filter({ hasText: 'Kept. 1 run removed.' }).waitFor();
    await countIs(page, /^8 runs \(of 8\)$/);
    assert.match(await keep.locator('summary').innerText(), /Runs older than 90 days or beyond the newest 8 are removed\./);
    const files = await readdir(dataDir);
    assert.ok(!files.some((n) => n.includes(seededId(0))), 'the oldest run (lab, 125 min ago) is gone from the folder');
    assert.ok(files.includes('history-retention.json'));

    // 1024 × 768: the filter row, the rule and the table fit without a sideways scroll.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByTestId('history-schedule').selectOption({ label: 'lab' });
    await countIs(page, /^4 runs \(of 8\)$/);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    await shot(page, '40-history-1024');
    assert.ok(scrollWidth <= 1024, `the page is ${scrollWidth} px wide at 1024`);
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
