/**
 * "Measure the path", as a user: both ends on this PC through the link
 * emulator set to 20 Mbit/s and 40 ms; the Test screen has the switch on by
 * default (a short emulated round trip) and says why; after the test the Run
 * screen names the measuring phase and the Results screen shows what the path
 * carried (within ±10 % of the emulated rate) beside what the run got.
 * Screenshots: test/e2e/screenshots/capacity-test.png, capacity-results.png.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();

describe('Measure the path (the app)', { skip: skip ?? false, timeout: 150_000 }, () => {
  const session = uiSession('longhaul-capacity-');

  it('measures the emulated path after the test and compares the run with it', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Through the local delay proxy').check();
    await page.getByLabel('Link rate (each way)').fill('20 Mbit/s');
    await page.getByLabel('Round-trip time').fill('40ms');
    await page.getByLabel('Window per stream', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('3');
    const box = page.getByTestId('measure-path').locator('input[type=checkbox]');
    assert.equal(await box.isChecked(), true, 'on by default on a short emulated round trip');
    assert.match(await page.getByTestId('measure-path-why').innerText(), /On by default/);
    await shot(page, 'capacity-test');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page
      .getByTestId('phase-line')
      .filter({ hasText: /Measuring the path/ })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 90_000 });
    await openExplain(page);
    const block = page.getByTestId('capacity');
    await block.waitFor();
    const text = await block.innerText();
    const m = /Path capacity \(measured by Longhaul, controller -> responder\): (?:at least )?([\d.]+) Mbit\/s of payload/.exec(text);
    assert.ok(m, text);
    const ratio = Number(m[1]) / 20;
    assert.ok(Math.abs(ratio - 1) <= 0.1, `capacity / emulated rate = ${ratio.toFixed(3)}: ${text}`);
    assert.match(text, /This run's settings got/);
    await block.scrollIntoViewIfNeeded();
    await shot(page, 'capacity-results');
  });
});
