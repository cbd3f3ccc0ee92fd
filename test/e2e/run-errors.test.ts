/**
 * From the click on Start to the answer, as a user in browser mode:
 * - a start to a refused address goes back to the Partner step with the
 *   reason in plain words (role="alert"), and History gets no row;
 * - a "Both on this PC" run shows its phase line and progress, the elapsed
 *   time counts from the data, the cards keep their figures whole at 1366
 *   and 1024 px, the live region announces the final rate;
 * - Results lead with one answer (rate, share of the link, verdict, change;
 *   the emulated RTT named) and the throughput-over-time chart.
 * Screenshots: test/e2e/screenshots/2x-*.png.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserMissing, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();

/** A port on 127.0.0.1 that was free a moment ago: a connect there is refused. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** The Run screen's figures that wrap or overflow their card (none should: no mid-figure wrap). */
async function brokenFigures(page: Page): Promise<string[]> {
  // A string: this file is compiled without the DOM types.
  return page.evaluate<string[]>(`[...document.querySelectorAll('.numbers .value')].flatMap((e) => {
    const cs = getComputedStyle(e);
    const line = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.3;
    return e.getBoundingClientRect().height > line * 1.5 || e.scrollWidth > e.clientWidth + 1 ? [e.innerText] : [];
  })`);
}

describe('run flow: failed starts, progress, the answer first', { skip: skip ?? false, timeout: 120_000 }, () => {
  const session = uiSession('longhaul-run-errors-');

  it('a start to a refused address goes back to the Partner step with the reason, and History gets no row', async () => {
    const { page, url, dataDir } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    const port = await closedPort();
    await page.getByLabel('Partner address').fill(`127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Next without a check' }).click();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Start the test' }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'The test did not start' });
    await alert.waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('start-failure').getAttribute('data-code'), 'LH_ERR_REFUSED');
    assert.match(await alert.innerText(), /Nothing is waiting for a test at 127\.0\.0\.1:\d+[\s\S]*Wait for a partner/);
    // Back on the Partner step, the address still there to correct.
    assert.equal(await page.getByLabel('Partner address').inputValue(), `127.0.0.1:${port}`);
    assert.equal(await page.locator('main').getAttribute('data-screen'), 'pair');
    assert.equal(await page.getByRole('heading', { name: /^Results/ }).count(), 0);
    await shot(page, '20-start-refused-partner');
    // The reason belongs to that address: changing it clears the message.
    await page.getByLabel('Partner address').fill(`127.0.0.1:${port + 1}`);
    await page.getByTestId('start-failure').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page
      .getByRole('heading', { name: /History/ })
      .first()
      .waitFor();
    assert.equal(await page.getByTestId('history').locator('tbody tr').count(), 0, 'no History row for a run that never started');
    const files = (await readdir(dataDir, { recursive: true })).filter((f) => String(f).endsWith('.json'));
    assert.deepEqual(
      files.filter((f) => /result|history/i.test(String(f))),
      [],
      `no result file: ${files.join(', ')}`,
    );
  });

  it('"Both on this PC" through a short emulated link: phases from the click, elapsed from the data, the answer first', async () => {
    const { page } = session();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Through the local delay proxy').check();
    await page.getByRole('button', { name: /^Satellite 4 Mbit\/s/ }).click();
    await page.getByLabel('Round-trip time').fill('600ms');
    await page.getByLabel('Window per stream', { exact: true }).fill('64K');
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('2');
    await page.getByLabel('Duration', { exact: true }).fill('6');
    await page.getByLabel('Sample interval').fill('0.5');
    await page.getByRole('button', { name: 'Start the test' }).click();

    // From the click: the Run screen with a phase line before any byte moved, and no "Elapsed 0.0 s".
    const line = page.getByTestId('phase-line');
    await line.waitFor({ timeout: 5_000 });
    const early = await line.innerText();
    assert.match(early, /^(Setting up the emulated link|Connecting to this PC's own responder|Agreeing on the test settings|Opening 2 streams|Starting)/);
    if ((await line.getAttribute('data-phase')) !== 'running') assert.equal(await page.getByTestId('elapsed').innerText(), '–');
    await shot(page, '21-run-setup-1366');
    await page
      .getByTestId('phase-line')
      .filter({ hasText: /^Running: [1-6] of 6 s$/ })
      .waitFor({ timeout: 20_000 });
    assert.match(await page.getByTestId('elapsed').innerText(), /s$/);
    assert.ok(Number(await page.getByTestId('run-progress').getAttribute('value')) > 0, 'the bar moves with the data');
    await shot(page, '22-run-1366');
    assert.deepEqual(await brokenFigures(page), [], 'figures on one line at 1366 px');
    await page.setViewportSize({ width: 1024, height: 768 });
    assert.deepEqual(await brokenFigures(page), [], 'figures on one line at 1024 px');
    await shot(page, '23-run-1024');

    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    const headline = page.getByTestId('headline');
    const rate = await page.getByTestId('headline-rate').innerText();
    assert.match(rate, /^[\d.]+ [kMG]bit\/s$/);
    assert.match(await headline.innerText(), /wall-clock aggregate/);
    // 2 × 64 KiB over 600 ms is ~1.75 Mbit/s of a 3.83 Mbit/s link; the verdict is the diagnosis's own (window-limited,
    // or emulator-limited on a busy PC), the change the advice's.
    assert.match(await page.getByTestId('headline-share').innerText(), /^\d+ % of the 3\.83 Mbit\/s this emulated link carries$/);
    assert.match(await page.getByTestId('headline-change').innerText(), /^(change|raise|ask)/);
    assert.match(
      await page.getByTestId('headline-rtt').innerText(),
      /RTT 600\.0 ms: the emulated link.s round trip; the per-stream RTTs under Explain are of the local hop/,
    );
    // Exactly one rate in the headline's first line; the per-stream sum is under Explain, named.
    assert.equal((await headline.locator('.rate').innerText()).match(/bit\/s/g)?.length, 1);
    assert.ok(Number(await page.getByTestId('result-chart').getAttribute('data-points')) >= 5, 'throughput over time from the intervals');
    assert.match(await page.getByTestId('run-announcer').innerText(), new RegExp(`^Finished: ${rate.replace('.', '\\.')} wall-clock aggregate`));
    await shot(page, '24-results-headline-1024');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '24-results-headline-1024-dark');
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, '25-results-headline-1366-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, '25-results-headline-1366');
    // The page fits its viewport: nothing pushes it sideways.
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 1366);
    assert.equal(await page.getByText('Per-stream sum').first().isVisible(), false, 'the detail is folded until Explain is opened');
    await openExplain(page);
    await page.getByText('Per-stream sum').first().waitFor();
    const verdict = await page.getByTestId('verdict').first().innerText();
    assert.equal(await page.getByTestId('headline-verdict').innerText(), verdict.replace(/\.$/, '').replace(/^MSS/, 'MSS').toLowerCase().replace('mss', 'MSS'));
    await shot(page, '25b-results-explain-1366');
  });

  it('"Both on this PC", direct: the headline names the missing link rate, and the what-if prints no unbounded figure', async () => {
    const { page } = session();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('1');
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    await openExplain(page);
    assert.match(await page.getByTestId('headline-rate').innerText(), /^[\d.]+ [MG]bit\/s$/);
    // No share without a link rate, and nothing "unknown" in the answer: the verdict and why come first.
    assert.equal(await page.getByTestId('headline-share').count(), 0);
    assert.doesNotMatch(await page.getByTestId('headline').innerText(), /unknown/);
    assert.match(await page.getByTestId('headline-why').innerText(), /^: \S/);
    const whatIf = page.getByTestId('what-if-lines');
    if (await whatIf.count()) assert.doesNotMatch(await whatIf.innerText(), /Tbit\/s|Pbit\/s/);
    await shot(page, '26-results-headline-loopback-direct');
  });
});
