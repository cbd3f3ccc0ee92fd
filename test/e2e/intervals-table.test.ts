/**
 * The Results screen's intervals table, as a user: a local run of 3 s, then the folded table opens
 * and shows, per stream per interval, the rate beside the sender's retransmits and cwnd (iperf3's
 * Retr and Cwnd), measured on this PC's own sockets (a number, not "unknown", where the addon reads
 * TCP_INFO). Screenshot: test/e2e/screenshots/intervals-table.png.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();

describe('Results: intervals with Retr and Cwnd', { skip: skip ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-intervals-');

  it('shows each interval with its rate, retransmits and cwnd', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    await openExplain(page);

    const table = page.getByTestId('intervals-table');
    await table.locator('summary').click();
    const headers = await table.locator('th').allInnerTexts();
    assert.deepEqual(headers, ['ID', 'Interval', 'Transfer', 'Bitrate', 'Retr', 'Cwnd']);
    const first = await table.locator('tbody tr').first().locator('td').allInnerTexts();
    // The first interval starts at the receiver's first byte: at 0.00, or a little before it when the receiver's clock
    // started late on a busy PC (the byte arrived before the clock's zero); never "-0.00".
    assert.match(first[1] ?? '', /^(0\.00|-\d\.\d\d)–1\.\d\d s$/);
    assert.match(first[3] ?? '', /bit\/s$/);
    assert.match(first[4] ?? '', /^\d+$/, 'retransmits counted on Linux');
    assert.match(first[5] ?? '', /^[\d.]+ (kB|MB)$/, 'cwnd in bytes');
    await table.scrollIntoViewIfNeeded();
    await shot(page, 'intervals-table');
  });
});
