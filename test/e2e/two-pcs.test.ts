/**
 * Two PCs, the app alone: two `longhaul ui` processes with their own data and trust folders
 * (two installations that have never met), each driven by its own Chromium, and no CLI
 * anywhere. A waits and shows its pairing code; B finds A, reads that code off A's page,
 * pairs (A reloads while waiting: still waiting), runs (reloaded mid-run: the same run again; on Results: the same result), reads the
 * answer; runs again from History after one confirmation, to A's control port; opens a second
 * tab and the used link again (straight in), while another browser needs a new link from the
 * running `longhaul ui`; then A forgets B and B's next run is refused in words that say what to
 * do in the app, while A lists the refused attempt. Every step is looked at 1024 and 1366 px
 * wide and may not scroll sideways. Screenshots two-pcs-*-1024.png and -1366.png, one per step
 * on each side.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { forkLonghaul, stopChild } from '../helpers/processes.js';
import { browserMissing, launchBrowser, shotAtWidths, waitForPoints, type Browser } from './browser.js';

const skip = browserMissing();

/** One installation of the app: its own data and trust folders, its UI server and a browser on it. */
interface Pc {
  name: string;
  dir: string;
  ui: ChildProcess;
  url: string;
  browser: Browser;
  page: Page;
}

async function startPc(name: string): Promise<Pc> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `longhaul-two-pcs-${name}-`));
  const env = { LONGHAUL_DATA_DIR: path.join(dir, 'results'), LONGHAUL_TRUST_DIR: path.join(dir, 'trust') };
  const u = await forkLonghaul<{ type: 'ui'; url: string }>(['ui', '--no-open', '--port', '0'], 'ui', env);
  const browser = await launchBrowser();
  return { name, dir, ui: u.child, url: u.msg.url, browser, page: browser.page };
}

/** A new single-use link from a running `longhaul ui` (as Enter on its terminal prints one), bounded. */
function newLink(ui: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (ui.off('message', onMessage), reject(new Error('no new link within 5 s'))), 5000);
    function onMessage(m: { type?: string; url?: string }): void {
      if (m?.type !== 'ui-link' || typeof m.url !== 'string') return;
      clearTimeout(timer);
      ui.off('message', onMessage);
      resolve(m.url);
    }
    ui.on('message', onMessage);
    ui.send({ type: 'new-link' });
  });
}

async function stopPc(pc: Pc | undefined): Promise<void> {
  if (!pc) return;
  await pc.browser.close();
  await stopChild(pc.ui);
  await rm(pc.dir, { recursive: true, force: true });
}

describe('two PCs, the app alone', { skip: skip ?? false, timeout: 300_000 }, () => {
  let a: Pc | undefined;
  let b: Pc | undefined;
  before(async () => {
    a = await startPc('a');
    b = await startPc('b');
  });
  after(async () => {
    await stopPc(b);
    await stopPc(a);
  });

  it('pairs with the code read off the other page, runs, runs again, and is refused once forgotten', async () => {
    assert.ok(a && b);
    const A = a.page;
    const B = b.page;
    /** Each step at both widths, never scrolling sideways (all problems are reported at the end). */
    const wide: string[] = [];
    const look = async (page: Page, name: string): Promise<void> => void wide.push(...(await shotAtWidths(page, name)));

    // A waits: its page shows the port and the code, and nothing else is needed from A's user.
    await A.goto(a.url);
    await A.getByRole('button', { name: /Wait for a partner/ }).click();
    await A.getByLabel('TCP port to listen on').fill('0');
    await A.getByRole('button', { name: 'Start waiting' }).click();
    const code = (await A.getByTestId('pairing-code').innerText()).trim();
    assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/, 'the code is on the Waiting page');
    const port = Number(/TCP port (\d+)/.exec(await A.getByTestId('pairing').innerText())?.[1]);
    assert.ok(port > 0, 'the Waiting page shows its port');
    await look(A, 'two-pcs-a-01-waiting');

    // B finds A by its address: reachable, not paired yet, and Next waits for the code.
    await B.goto(b.url);
    await B.getByRole('button', { name: /Run a test from this PC/ }).click();
    await B.getByLabel('Partner address').fill(`127.0.0.1:${port}`);
    await B.getByRole('button', { name: 'Check connection' }).click();
    await B.locator('[data-testid="pairing-state"][data-state="not-paired"]').waitFor();
    assert.equal(await B.getByTestId('pair-next').isDisabled(), true, 'Next waits for the pairing');
    await look(B, 'two-pcs-b-01-not-paired');

    // The code as B's user reads it off A's screen.
    await B.getByLabel('Pairing code').fill(code);
    await B.getByRole('button', { name: 'Pair', exact: true }).click();
    await B.locator('[data-testid="pairing-state"][data-state="paired"]').waitFor();
    await B.getByTestId('paired-peers').locator('tbody tr').first().waitFor();
    await look(B, 'two-pcs-b-02-paired');
    // A's code was used: it shows a new one, and lists B among its paired PCs.
    await A.getByTestId('pairing-code').filter({ hasNotText: code }).waitFor();
    const aRow = A.getByTestId('paired-peers').locator('tbody tr').first();
    await aRow.waitFor();
    // The address as B's user would type it, not the dual-stack socket's ::ffff: form.
    assert.match(await aRow.innerText(), /\b127\.0\.0\.1\b/);
    assert.doesNotMatch(await aRow.innerText(), /::ffff:/);
    await look(A, 'two-pcs-a-02-paired');
    // A reloads while waiting: still waiting, with a code and its paired PC; no firewall hint (a partner came).
    await A.reload();
    await A.getByTestId('pairing-code').waitFor();
    await A.getByTestId('paired-peers').locator('tbody tr').first().waitFor();
    assert.equal(await A.getByTestId('firewall-hint').count(), 0);
    await look(A, 'two-pcs-a-02-reloaded');

    // First run, direct, 6 s in half-second samples: B reloads in the middle of it and is shown the same run.
    await B.getByTestId('pair-next').click();
    await B.getByLabel('Direct, over the network as it is').check();
    await B.getByRole('button', { name: 'Next: the test' }).click();
    await B.getByLabel('Duration', { exact: true }).fill('6');
    await B.getByLabel('Sample interval').fill('0.5');
    await B.getByRole('button', { name: 'Start the test' }).click();
    await waitForPoints(B, 2);
    await B.reload();
    await B.getByRole('button', { name: /^Stop/ }).waitFor();
    await waitForPoints(B, 1);
    await look(B, 'two-pcs-b-03-reloaded-mid-run');
    await B.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    const rate = await B.getByTestId('headline-rate').innerText();
    assert.match(rate, /bit\/s$/);
    // A reload on Results: the same result.
    await B.reload();
    await B.getByRole('heading', { name: /^Results/ }).waitFor();
    assert.equal(await B.getByTestId('headline-rate').innerText(), rate);
    await look(B, 'two-pcs-b-03-results');
    // B measured the path after its run ("Measure the path" is on by default between two PCs): A's Waiting page
    // shows that tuned run live and the last run again once it ends (under load that took over 15 s once).
    await A.getByRole('heading', { name: "Last run (this PC's view)" }).waitFor({ timeout: 40_000 });
    await look(A, 'two-pcs-a-03-served');

    // Run again from History: no code, A's control port (not a port of that run's connections), after one confirmation.
    await B.getByRole('navigation').getByRole('button', { name: 'History', exact: true }).click();
    await B.getByTestId('history').locator('tbody tr').first().getByRole('button', { name: 'Run again' }).click();
    const again = B.getByTestId('run-again');
    assert.equal(await again.getByTestId('run-again-what').innerText(), `TCP, 1 stream, 6 s, forward, to 127.0.0.1:${port}; link: direct.`);
    await look(B, 'two-pcs-b-04-run-again-confirm');
    await again.getByRole('button', { name: 'Start the run' }).click();
    await B.getByRole('button', { name: /^Stop/ }).waitFor();
    await B.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    await look(B, 'two-pcs-b-04-run-again');

    // A second tab of B's browser, and B's link opened again: straight in, no new link needed.
    const tab = await b.browser.context.newPage();
    await tab.goto(new URL('/', b.url).href);
    await tab.getByTestId('hostname').waitFor();
    await tab.goto(b.url);
    await tab.getByTestId('hostname').waitFor();
    assert.equal(new URL(tab.url()).search, '', 'the used link only sent it home');
    await look(tab, 'two-pcs-b-05-second-tab');
    await tab.close();
    // Another browser: the used link is refused, and the running `longhaul ui` gives a new one (no restart).
    const other = await launchBrowser();
    try {
      const refused = await other.page.goto(b.url);
      assert.equal(refused?.status(), 403);
      assert.match(await other.page.locator('body').innerText(), /already used by another browser/);
      const link = await newLink(b.ui);
      await other.page.goto(link);
      await other.page.getByTestId('hostname').waitFor();
      await look(other.page, 'two-pcs-b-06-other-browser');
    } finally {
      await other.close();
    }

    // A forgets B on its Waiting screen; B's next run is refused in words for the app, and goes back to Partner.
    const row = A.getByTestId('paired-peers').locator('tbody tr').first();
    await row.getByRole('button', { name: /^Forget/ }).click();
    await row.getByRole('button', { name: /^Forget .+/ }).click();
    await A.getByTestId('paired-peers').getByText('None yet').waitFor();
    await B.getByRole('button', { name: 'Run again' }).click();
    await B.getByRole('button', { name: 'Start the test' }).click();
    const failure = B.getByTestId('start-failure');
    await failure.waitFor({ timeout: 30_000 });
    assert.equal(await failure.getAttribute('data-code'), 'LH_ERR_NOT_PAIRED');
    const words = await failure.innerText();
    assert.match(words, /not paired with this PC/);
    assert.match(words, /Wait for a partner/);
    assert.doesNotMatch(words.split('Details')[0] ?? words, /longhaul (pair|listen)/, 'the app says what to do in the app, not a command');
    await B.getByLabel('Partner address').waitFor();
    await look(B, 'two-pcs-b-08-refused');
    // A says who tried.
    await A.getByTestId('refused')
      .getByText(/tried to connect but is not paired/)
      .waitFor();
    await look(A, 'two-pcs-a-04-refused-listed');

    // Nothing of the refused run in B's History: two rows, the two runs that moved data.
    await B.getByRole('navigation').getByRole('button', { name: 'History', exact: true }).click();
    await B.getByTestId('history').locator('tbody tr').nth(1).waitFor();
    assert.equal(await B.getByTestId('history').locator('tbody tr').count(), 2);
    await look(B, 'two-pcs-b-07-history');
    assert.deepEqual(wide, [], 'no step scrolls sideways at 1024 or 1366 px');
  });
});
