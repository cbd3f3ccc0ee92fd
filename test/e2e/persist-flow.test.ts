/**
 * The wizard's choices survive a reload (localStorage, per PC), and History's
 * "Run again" repeats a stored run after one confirmation, or puts its settings
 * back into the forms: `longhaul ui`
 * and Chromium, "Both on this PC" direct for a 2-second run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, uiSession, openExplain, waitForPoints } from './browser.js';

const skip = browserMissing();

describe('choices that survive', { skip: skip ?? false, timeout: 150_000 }, () => {
  const session = uiSession('longhaul-persist-');

  it('keeps the partner, the link and the test settings across a reload', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    await page.getByLabel('Partner address').fill('192.0.2.7:6000');
    // At once, inside the write delay: leaving the page stores what is pending.
    await page.goto(new URL('/', url).href);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    assert.equal(await page.getByLabel('Partner address').inputValue(), '192.0.2.7:6000');

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByLabel('Through the local delay proxy').check();
    await page.getByLabel('Round-trip time').fill('80ms');
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('3');
    await page.getByLabel('Sample interval').fill('0.5');
    // Past the 300 ms write delay, then a reload: the same step with the same values; the forms come back
    // from Start too, and the loopback port does not replace the partner.
    await page.waitForTimeout(600);
    await page.reload();
    await page.getByRole('heading', { name: 'The test', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Parallel streams').inputValue(), '3', 'the reload kept the step and its values');
    await page.getByRole('navigation').getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    assert.equal(await page.getByLabel('Partner address').inputValue(), '192.0.2.7:6000', 'the real partner, not the loopback responder');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    assert.equal(await page.getByLabel('Through the local delay proxy').isChecked(), true);
    assert.equal(await page.getByLabel('Round-trip time').inputValue(), '80ms');
    await page.getByRole('button', { name: 'Next: the test' }).click();
    assert.equal(await page.getByLabel('Parallel streams').inputValue(), '3');
    assert.equal(await page.getByLabel('Sample interval').inputValue(), '0.5');
    // A corrupt stored value is ignored: the app starts with its defaults (written after the page's own pending write).
    await page.waitForTimeout(600);
    await page.evaluate(`localStorage.setItem('longhaul.wizard/1', '{"schema":"longhaul.wizard/1","form":')`);
    await page.goto(new URL('/', url).href);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    assert.equal(await page.getByLabel('Partner address').inputValue(), '');
  });

  it('runs a stored run again: its settings in the forms, on the Test step', async () => {
    const { page } = session();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('2');
    await page.getByLabel('Buffer per write/read').fill('64K');
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    await openExplain(page);
    // Other settings on the forms, then History: the run is listed once (both ends stored it here).
    await page.getByRole('navigation').getByRole('button', { name: 'History', exact: true }).click();
    const rows = page.getByTestId('history').locator('tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1, 'a loopback run is one row');
    await shot(page, 'persist-history-run-again');
    await rows.first().getByRole('button', { name: 'Run again' }).click();
    // One confirmation, saying what will run; "Change the settings first" puts them in the forms instead.
    const again = page.getByTestId('run-again');
    assert.match(
      await again.getByTestId('run-again-what').innerText(),
      /^TCP, 2 streams, 2 s, forward, to both ends on this PC \(a new local responder\); link: direct\.$/,
    );
    await shot(page, 'persist-run-again-confirm');
    await again.getByRole('button', { name: 'Change the settings first' }).click();
    await page.getByRole('heading', { name: 'The test', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Parallel streams').inputValue(), '2');
    assert.equal(await page.getByLabel('Buffer per write/read').inputValue(), '64K');
    assert.equal(await page.getByLabel('Duration', { exact: true }).inputValue(), '2');
    assert.match(await page.locator('main').innerText(), /Partner: 127\.0\.0\.1:\d+ · link: direct/);
    await shot(page, 'persist-run-again-test');
    // Confirmed, it starts at once: a new local responder, the same settings, a second row in History.
    await page.getByRole('navigation').getByRole('button', { name: 'History', exact: true }).click();
    await rows.first().getByRole('button', { name: 'Run again' }).click();
    await page.getByRole('button', { name: 'Start the run' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    await openExplain(page);
    assert.match(await page.locator('main').innerText(), /2 stream\(s\), forward, 2 s, 65,536-byte buffers/);
    await page.getByRole('navigation').getByRole('button', { name: 'History', exact: true }).click();
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
  });

  it('comes back to its place after a reload: a run still going is watched again, then its Results; Back and Forward move between screens', async () => {
    const { page, url } = session();
    await page.goto(new URL('/', url).href);
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('1');
    await page.getByLabel('Buffer per write/read').fill('128K');
    await page.getByLabel('Duration', { exact: true }).fill('8');
    await page.getByLabel('Sample interval').fill('0.5');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await waitForPoints(page, 2);
    assert.match(page.url(), /#run$/);
    // Mid-run: the Run screen again, fed by the same run (its samples from the reload on; 8 s leave at least 3 s).
    await page.reload();
    await page.getByRole('button', { name: /^Stop/ }).waitFor();
    await waitForPoints(page, 2);
    await shot(page, 'persist-reload-mid-run');
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    const rate = await page.getByTestId('headline-rate').innerText();
    // On Results: the same result again.
    await page.reload();
    await page.getByRole('heading', { name: /^Results/ }).waitFor();
    assert.equal(await page.getByTestId('headline-rate').innerText(), rate);
    await shot(page, 'persist-reload-results');
    // Back: the step before the run (Results took the Run screen's place); Forward: the Results again.
    await page.goBack();
    await page.getByRole('heading', { name: 'The test', exact: true }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.goForward();
    await page.goForward();
    await page.getByRole('heading', { name: /^Results/ }).waitFor();
    assert.equal(await page.getByTestId('headline-rate').innerText(), rate);
  });
});
