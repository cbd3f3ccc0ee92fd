/**
 * The Link, Test, Sweep and History screens' smaller promises, in Chromium at
 * 1366 and 1024 px: the app's own rate notation is accepted, a preset gives a
 * form that can go on (and a bad window names the largest), Direct shows no
 * preset as chosen, sweep labels say "2 streams" once, a third overlay tick
 * is refused with a reason, and the TCP chart's axis titles stay clear of
 * their ticks. Screenshots of each go to test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserMissing, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();

/** Screenshots at both widths the app is used at (laptops: 1366; small windows and projectors: 1024). */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 768 });
}

describe('link, test, sweep and history screens', { skip: skip ?? false, timeout: 120_000 }, () => {
  const session = uiSession('longhaul-link-screen-');

  it('accepts "4 Mbit/s", keeps Next open after a preset, names the largest window, and shows no preset chosen for Direct', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    // Direct (the default): the presets only fill the model, none is shown as chosen.
    assert.equal(await page.getByLabel('Direct, over the network as it is').isChecked(), true);
    assert.equal(await page.locator('[aria-label="Link presets"] button[aria-pressed="true"]').count(), 0, 'no preset pressed with Direct');
    await shots(page, 'link-direct');
    await page.getByLabel('Through the local delay proxy').check();
    assert.equal(await page.locator('[aria-label="Link presets"] button[aria-pressed="true"]').count(), 1);
    await page.getByLabel('Link rate (each way)').fill('4 Mbit/s');
    assert.equal(await page.locator('#rate-error').innerText(), '');
    await page.getByLabel('Link rate (each way)').fill('1Gbit/s');
    assert.equal(await page.locator('#rate-error').innerText(), '');
    // A window past the largest: the message names it, and Next waits.
    await page.getByLabel('Window per stream', { exact: true }).fill('99999999999999999999');
    assert.match(await page.locator('#lwin-error').innerText(), /between 1 byte and 1G \(1,073,741,824 bytes\)/);
    await page.getByLabel('Window per stream', { exact: true }).fill('2G');
    assert.match(await page.locator('#lwin-error').innerText(), /1G \(1,073,741,824 bytes\)/);
    assert.equal(await page.getByRole('button', { name: 'Next: the test' }).isDisabled(), true);
    await shots(page, 'link-window-too-large');
    // A preset gives a form that can go on.
    await page.getByRole('button', { name: /Geostationary/ }).click();
    assert.equal(await page.getByLabel('Window per stream', { exact: true }).inputValue(), '');
    assert.equal(await page.getByRole('button', { name: 'Next: the test' }).isDisabled(), false);
    await page.getByRole('button', { name: /Transcontinental/ }).click();
    assert.doesNotMatch(await page.locator('main').innerText(), /seed|record's path|PetaBumps|hardware link simulator/i);
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Path rate (optional)').fill('4 Mbit/s');
    assert.equal(await page.locator('#path-rate-error').innerText(), '');
    await page.getByLabel('Path rate (optional)').fill('');
    await shots(page, 'test-screen');
  });

  it('keeps the TCP chart readable at 1024 px and refuses a third overlay tick with a reason', async () => {
    const { page } = session();
    await page.getByLabel('Parallel streams').fill('1');
    await page.getByLabel('Duration', { exact: true }).fill('4');
    await page.getByLabel('Sample interval').fill('0.5');
    for (let i = 0; i < 3; i++) {
      if (i > 0) {
        await page.getByRole('navigation').getByRole('button', { name: 'Start' }).click();
        await page.getByRole('button', { name: /Both on this PC/ }).click();
        await page.getByRole('button', { name: 'Next: the test' }).click();
        await page.getByLabel('Duration', { exact: true }).fill('1');
      }
      await page.getByRole('button', { name: 'Start the test' }).click();
      if (i === 0) {
        await page.getByTestId('tcp-panel').waitFor();
        await page.waitForTimeout(2500);
        await shots(page, 'run-tcp-panel');
      }
      await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
      await openExplain(page);
    }
    await page.getByRole('navigation').getByRole('button', { name: 'History' }).click();
    const boxes = page.getByTestId('history').getByRole('checkbox');
    await boxes.nth(2).waitFor();
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await boxes.nth(2).click();
    assert.equal(await boxes.nth(2).isChecked(), false, 'the third tick is refused');
    assert.deepEqual([await boxes.nth(0).isChecked(), await boxes.nth(1).isChecked()], [true, true], 'neither earlier tick was dropped');
    assert.match(await page.getByTestId('compare-note').innerText(), /Two runs are already ticked/);
    await shots(page, 'history-third-tick');
  });

  it('names a streams value once on the Sweep screen', async () => {
    const { page } = session();
    await page.getByRole('navigation').getByRole('button', { name: 'Sweep' }).click();
    await page.getByLabel('Parallel streams').fill('1, 2');
    await page.getByLabel('Seconds per run').fill('1');
    await page.getByLabel('Repeats per cell').fill('1');
    await page.getByLabel('Pause between runs').fill('0');
    await shots(page, 'sweep-plan');
    await page.getByRole('button', { name: 'Start the sweep' }).click();
    await page
      .getByTestId('sweep-status')
      .filter({ hasText: /2 of 2 runs done/ })
      .waitFor({ timeout: 30_000 });
    await shots(page, 'sweep-done');
    assert.doesNotMatch(await page.locator('main').innerText(), /streams \d+ streams?/);
  });
});
