/**
 * End to end, as a user: `longhaul ui` and two `longhaul listen` responders as
 * real processes on 127.0.0.1 (each its own installation, paired with the
 * UI's), Debian's Chromium putting both partners on the Partner step's list,
 * a short dual-receive group run (a line per peer plus the aggregate in the
 * live chart), the group results (per-peer blocks, both aggregate
 * conventions, the group sentence), the CSV export checked against the stored
 * group file, and History's group row reopened. Screenshots:
 * test/e2e/screenshots/3x-group-*.png.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { LonghaulGroupResult } from '../../electron/contract/group.js';
import { spawnLoopbackResponder, stopLocalResponder } from '../../electron/engine/session/local-responder.js';
import { renderGroupReport } from '../../electron/report/render.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { newPairingCode } from '../../electron/security/pairing-code.js';
import { forkLonghaul, stopChild } from '../helpers/processes.js';
import { browserMissing, launchBrowser, shot, type Browser } from './browser.js';

const skip = browserMissing();

async function download(page: Page, button: string, scope: Page | Locator = page): Promise<string> {
  const [d] = await Promise.all([page.waitForEvent('download'), scope.getByRole('button', { name: button, exact: true }).click()]);
  return readFile(await d.path(), 'utf8');
}

/** Poll until `cond` holds (bounded); on timeout, a screenshot and the page's text say where it stood. */
async function until(page: Page, what: string, cond: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > deadline) {
      await shot(page, '3x-group-FAILED');
      throw new Error(`${what} did not happen within ${ms} ms; the page said: ${(await page.locator('main').innerText()).slice(0, 900)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('group runs in browser mode, end to end', { skip: skip ?? false, timeout: 120_000 }, () => {
  let dir: string;
  let ui: ChildProcess | undefined;
  const listeners: ChildProcess[] = [];
  const ports: number[] = [];
  let browser: Browser | undefined;
  let url: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-group-ui-'));
    const trust = path.join(dir, 'trust');
    // Pair before the UI starts, so its trust folder already holds both partners.
    const mine = await loadTrust(trust);
    for (const name of ['group-peer-a', 'group-peer-b']) {
      const code = newPairingCode();
      const env = { ...process.env, LONGHAUL_TRUST_DIR: path.join(dir, name), LONGHAUL_PAIRING_CODE: code };
      const { child, port } = await spawnLoopbackResponder([], env, false);
      listeners.push(child);
      ports.push(port);
      await pairWith({ host: '127.0.0.1', port, code, security: mine });
    }
    const u = await forkLonghaul<{ type: 'ui'; url: string }>(['ui', '--no-open', '--port', '0'], 'ui', {
      LONGHAUL_DATA_DIR: path.join(dir, 'data'),
      LONGHAUL_TRUST_DIR: trust,
    });
    ui = u.child;
    url = u.msg.url;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await Promise.all([stopChild(ui, 12_000), ...listeners.map((l) => stopLocalResponder(l))]);
    await rm(dir, { recursive: true, force: true });
  });

  it('ticks two partners, runs a dual-receive group live, shows the group results and finds it in History', async () => {
    const page = browser!.page;
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();

    // Partner: both addresses on the list, ticked; the list says what a group run is.
    for (const port of ports) {
      await page.getByLabel('Partner address').fill(`127.0.0.1:${port}`);
      await page.getByRole('button', { name: `Add 127.0.0.1:${port} to the list` }).click();
    }
    await page.getByTestId('partner-count').filter({ hasText: '2 partners ticked: the test is a group run' }).waitFor();
    assert.match(await page.getByTestId('partner-list').innerText(), /one ordinary run per partner, all started at the same instant/);
    await shot(page, '3x-group-1-partners');
    await page.getByRole('button', { name: 'Next: the test with 2 partners' }).click();

    // Test: the direction applies to all; a short dual receive.
    await page.getByTestId('group-note').waitFor();
    await page.getByLabel('Direction').selectOption({ label: 'All send to this PC (dual receive)' });
    await page.getByLabel('Parallel streams').fill('2');
    await page.getByLabel('Duration', { exact: true }).fill('4');
    await page.getByLabel('Sample interval').fill('0.25');
    await shot(page, '3x-group-2-test');
    await page.getByRole('button', { name: 'Start the test' }).click();

    // Run: a line per peer plus the aggregate, named; the aggregate grows.
    await page.getByRole('heading', { name: 'Running' }).waitFor({ timeout: 20_000 });
    const chart = page.getByTestId('live-chart');
    const want = ['all 2 peers', ...ports.map((p, i) => `peer ${i + 1} (127.0.0.1:${p})`)];
    await until(page, 'two peer lines and the aggregate with 4 points', async () => {
      const lines = ((await chart.getAttribute('data-lines')) ?? '').split('|');
      return lines.length === 3 && want.every((w, i) => lines[i]!.startsWith(w)) && Number(await chart.getAttribute('data-points')) >= 4;
    });
    const names = (await chart.getAttribute('data-lines'))!.split('|');
    assert.match(names[1]!, new RegExp(`^peer 1 \\(127\\.0\\.0\\.1:${ports[0]}\\) \\S+`), 'the legend names the peer with its host name');
    assert.match(await page.getByTestId('group-peers').innerText(), /peer 1[\s\S]*Running[\s\S]*peer 2[\s\S]*Running/);
    assert.match(await page.getByTestId('rate-now').innerText(), /bit\/s$/);
    await shot(page, '3x-group-3-run');

    // Results: the aggregate under both conventions, the group sentence, a block per peer.
    await page.getByRole('heading', { name: /^Group results/ }).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('partial').count(), 0);
    assert.match(await page.getByTestId('group-wall-clock').innerText(), /bit\/s$/);
    assert.match(await page.getByTestId('group-peer-sum').innerText(), /bit\/s$/);
    assert.match(await page.getByTestId('group-diagnosis').innerText(), /^Group limiter: peer \d \(127\.0\.0\.1:\d+\) was the slower one/);
    assert.equal(await page.getByTestId('group-peer').count(), 2);
    assert.equal(await page.getByTestId('group-peer').nth(1).getByTestId('diagnosis').count(), 1, 'each peer keeps its own diagnosis');
    await page.getByTestId('console-log').filter({ hasText: '=== all 2 peers (Thread = peer number) ===' }).waitFor();
    await shot(page, '3x-group-4-results');

    // The stored group is the one shown; its CSV export is `longhaul report --format csv` of it.
    const groupsDir = path.join(dir, 'data', 'groups');
    const stored = (await readdir(groupsDir)).filter((n) => n.endsWith('.json'));
    assert.equal(stored.length, 1);
    const g = JSON.parse(await readFile(path.join(groupsDir, stored[0]!), 'utf8')) as LonghaulGroupResult;
    assert.equal(g.partial, false, g.partialReason ?? '');
    assert.deepEqual(
      g.peers.map((p) => p.role),
      ['receiver', 'receiver'],
    );
    assert.ok(g.peers.every((p) => p.result.total.bytes > 0));
    assert.equal(Number(await page.getByTestId('group-bytes').getAttribute('data-bytes')), g.total.bytes);
    assert.equal(await download(page, 'CSV'), renderGroupReport(g, 'csv'));

    // History: the group's row (title, peers, rate, status), re-export, Open.
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    const row = page.getByTestId('group-history').locator('tbody tr');
    await row.first().waitFor();
    assert.equal(await row.count(), 1);
    const text = await row.first().innerText();
    assert.match(text, /2 peers, dual receive/);
    assert.match(text, new RegExp(`127\\.0\\.0\\.1:${ports[0]}[\\s\\S]*127\\.0\\.0\\.1:${ports[1]}`));
    assert.match(text, /bit\/s[\s\S]*complete/);
    assert.equal(await download(page, 'Log', row.first()), renderGroupReport(g, 'console'));
    await shot(page, '3x-group-5-history');
    await row
      .first()
      .getByRole('button', { name: /^Open the group run/ })
      .click();
    await page.getByRole('heading', { name: /^Group results/ }).waitFor();
    assert.equal(await page.getByTestId('group-peer').count(), 2);
    assert.deepEqual(consoleErrors, []);
  });

  it('a peer killed mid-run: its row shows its rate over the seconds measured, labelled; the sums say they hold a partial peer', async () => {
    const page = browser!.page;
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    const count = page.getByTestId('partner-count');
    for (const port of ports) {
      if ((await count.count()) && /2 partners ticked/.test(await count.innerText())) break;
      await page.getByLabel('Partner address').fill(`127.0.0.1:${port}`);
      const add = page.getByRole('button', { name: `Add 127.0.0.1:${port} to the list` });
      if (await add.count()) await add.click();
    }
    await count.filter({ hasText: '2 partners ticked: the test is a group run' }).waitFor();
    await page.getByRole('button', { name: 'Next: the test with 2 partners' }).click();
    await page.getByTestId('group-note').waitFor();
    await page.getByLabel('Direction').selectOption({ label: 'All send to this PC (dual receive)' });
    await page.getByLabel('Duration', { exact: true }).fill('10');
    await page.getByLabel('Sample interval').fill('0.25');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: 'Running' }).waitFor({ timeout: 20_000 });
    const chart = page.getByTestId('live-chart');
    await until(page, 'the aggregate with 4 points', async () => Number(await chart.getAttribute('data-points')) >= 4);
    listeners[1]!.kill('SIGKILL');

    await page.getByRole('heading', { name: /^Group results/ }).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('partial').first().count(), 1, 'the group is partial');
    const rates = await page.getByTestId('group-peer-rate').allInnerTexts();
    assert.doesNotMatch(rates[0]!, /partial/, 'the peer that lived has its wall-clock rate');
    assert.match(rates[1]!, /^\S+ [kMG]bit\/s \(partial: over the [\d.]+ s measured\)$/, 'the killed peer: its rate over the seconds measured');
    assert.equal(await page.getByTestId('group-peer-sum-of').first().innerText(), '(sum of 2 peers, 1 partial)');
    assert.match(await page.getByTestId('group-stream-sum-of').first().innerText(), /^\(sum of \d+ streams, \d+ partial\)$/);
    // A killed peer is not "the slower one": it stopped, and only peers that ran to the end are compared.
    assert.match(await page.getByTestId('group-diagnosis').innerText(), /Peer 2 \(127\.0\.0\.1:\d+\) is partial and not compared/);
    assert.doesNotMatch(await page.getByTestId('group-diagnosis').innerText(), /slower one/);
    // No stream shows fewer bytes sent than arrived: a vanished sender's last sample is shown as a lower bound (≥).
    for (const tr of await page.locator('table[aria-label="Per-stream results"] tbody tr').all()) {
      const sent = await tr.getByTestId('stream-sent').innerText();
      const received = Number((await tr.locator('td').nth(3).innerText()).replace(/,/g, ''));
      if (sent !== 'unknown') assert.ok(Number(sent.replace(/^≥ /, '').replace(/,/g, '')) >= received, `sent ${sent} against ${received} received`);
    }
    await shot(page, '3x-group-6-partial');
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    const row = page.getByTestId('group-history').locator('tbody tr');
    await row.first().waitFor();
    assert.match(await row.first().innerText(), /bit\/s \(sum of 2 peers, 1 partial\)[\s\S]*partial/);
    await shot(page, '3x-group-7-history-partial');
  });
});
