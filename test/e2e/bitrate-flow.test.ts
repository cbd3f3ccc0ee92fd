/**
 * The Test screen's Bitrate field, as a user: a typo shows its own message next to the field
 * and the test does not start; 20M on "Both on this PC" runs paced, and Results name the
 * pacing as the limit (application-limited, --bitrate) with the rate per stream and how it
 * was applied. Screenshots: test/e2e/screenshots/bitrate-*.png.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();

describe('Test screen: Bitrate per stream', { skip: skip ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-bitrate-');

  it('refuses a typo in its own words, then paces a local run at 20 Mbit/s and says so in Results', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('3');

    const field = page.getByLabel('Bitrate per stream');
    await field.fill('12Q');
    const error = page.locator('#bitrate-error');
    assert.match(await error.innerText(), /\S/, 'a message next to the field');
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await shot(page, 'bitrate-1-typo');
    await field.fill('500');
    assert.match(await error.innerText(), /from 1 kbit\/s to 1 Tbit\/s per stream/);

    const cc = page.getByLabel('Congestion control');
    await cc.fill('bbr; rm');
    assert.match(await page.locator('#congestion-error').innerText(), /a name such as bbr, cubic or reno/);
    await cc.fill('reno');
    assert.equal(await page.locator('#congestion-error').innerText(), '');
    await field.fill('20M');
    assert.equal(await error.innerText(), '');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    await openExplain(page);
    assert.equal(await page.getByTestId('verdict').first().innerText(), 'Application-limited.');
    // The app's detail names its own control, never the terminal's flag (contract/door.ts).
    assert.match(
      await page.getByTestId('diagnosis-sentence').first().innerText(),
      /paced at 20 Mbit\/s per stream by the Bitrate per stream setting on the Test step/,
    );
    assert.doesNotMatch(await page.getByTestId('diagnosis-sentence').first().innerText(), /--/);
    assert.match(await page.getByTestId('headline-change').innerText(), /^clear Bitrate per stream on the Test step/);
    assert.match(await page.getByTestId('pacing-line').innerText(), /20 Mbit\/s per stream .*controller: (kernel SO_MAX_PACING_RATE|Longhaul's own pacing)/);
    assert.match(await page.getByTestId('pacing-line').innerText(), /\S/);
    assert.match(
      await page.getByTestId('congestion-line').innerText(),
      /^Congestion control: reno asked; controller used reno, responder used reno/,
      'the summary names what each end used',
    );
    // The advice names the app's own control, not the terminal's -b/--bitrate.
    const advice = await page.getByTestId('advice-table').innerText();
    assert.match(advice, /Bitrate per stream on the Test step/);
    assert.doesNotMatch(advice, /--bitrate|-b\//);
    await page.getByTestId('pacing-line').scrollIntoViewIfNeeded();
    await shot(page, 'bitrate-2-results');
  });

  it('1 Mbit/s for 2 s on this PC: more arrives than the pace (the unpaced first burst), and Results still name the pacing and the burst', async () => {
    // On loopback the kernel's first burst is 10 × 64 KiB, ~2.6 s of a 1 Mbit/s pace: the total is well above the pace.
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await page.getByLabel('Bitrate per stream').fill('1M');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    assert.match(await page.getByTestId('headline-why').innerText(), /paced to 1\.0 Mbit\/s \(more arrived: the kernel's first burst is unpaced\)/);
    await openExplain(page);
    assert.match(await page.getByTestId('diagnosis-sentence').first().innerText(), /more, by the first burst the kernel sends before it paces/);
    await shot(page, 'bitrate-3-first-burst');
  });
});
