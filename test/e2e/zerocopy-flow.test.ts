/**
 * The Test screen's zero-copy sender, as a user: ticked on "Both on this PC", the run's Results
 * say which call the sender used (sendfile(2) on Linux), in the app's words (no flag).
 * Screenshots: test/e2e/screenshots/zerocopy-*.png.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();

describe('Test screen: zero-copy sender', { skip: skip ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-zerocopy-');

  it('ticked, a local run says in Results that the controller sent with sendfile(2)', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('2');
    const box = page.getByTestId('zero-copy').getByRole('checkbox');
    await box.check();
    await page.getByTestId('zero-copy').scrollIntoViewIfNeeded();
    await shot(page, 'zerocopy-1-setup');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    await openExplain(page);
    const line = await page.getByTestId('send-path-line').innerText();
    const expected =
      process.platform === 'linux' ? /^Zero-copy sender: controller sendfile\(2\) on its 1 stream$/ : /^Zero-copy sender: controller copied on 1 of 1 \(/;
    assert.match(line, expected);
    assert.doesNotMatch(line, /-Z/, 'the app names its checkbox, not the flag');
    await page.getByTestId('send-path-line').scrollIntoViewIfNeeded();
    await shot(page, 'zerocopy-2-results');
  });
});
