/**
 * End to end, as a user: `longhaul ui` and a real `iperf3 -s -1` (Debian's), Chromium
 * choosing "The partner runs iperf3 -s" on the Partner step (no pairing shown), straight on
 * to the Test (no Link step), a live chart of this PC's counters, the Results with iperf3
 * named as the partner, and the run in History. Screenshots go to test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { HAVE_IPERF3, freePort, startIperf3Server, type Iperf3Exit } from '../helpers/iperf3.js';
import { within } from '../helpers/net.js';
import { browserMissing, shot, waitForPoints, uiSession, openExplain } from './browser.js';

const skip = browserMissing() ?? (HAVE_IPERF3 ? false : 'no /usr/bin/iperf3');

describe('browser mode: a run against iperf3 -s', { skip, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-ui-iperf3-');

  it('Partner "runs iperf3 -s" → Test → a live chart → Results naming iperf3 → History', async () => {
    const page = session().page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // -1: one test, then iperf3 exits (killed after 60 s if the UI never connects).
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 60_000);
    await page.goto(session().url);
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    await page.getByLabel('Partner address').waitFor();

    // No Check connection here: iperf3 -s -1 would take that bare connection as its one test.
    await page.getByTestId('partner-iperf3').check();
    assert.match(await page.getByTestId('iperf3-note').innerText(), /No pairing: an iperf3 server has none/);
    assert.equal(await page.getByLabel(/Pairing code/).count(), 0, 'no pairing code field for an iperf3 partner');
    await page.getByLabel('Partner address').fill(`127.0.0.1:${port}`);
    await shot(page, '40-iperf3-partner');
    await page.getByRole('button', { name: 'Next without a check' }).click();

    // Straight to the Test: the Link step is for Longhaul partners.
    await page.getByLabel('Parallel streams').fill('2');
    // 5 s: the six points and the reads below come well before the run's end on a slow machine.
    await page.getByLabel('Duration', { exact: true }).fill('5');
    await page.getByLabel('Sample interval').fill('0.25');
    await page.getByText('direct (the partner runs iperf3 -s: no pairing, no emulator)').waitFor();
    const linkStep = page.getByRole('list', { name: 'Steps' }).getByRole('listitem').nth(2);
    assert.match(await linkStep.innerText(), /^3\. Link\s*\(skipped\)$/, 'the step bar keeps its numbering, and says so to a screen reader');
    assert.match((await linkStep.getAttribute('class')) ?? '', /\bskipped\b/, 'and shows the Link step as skipped');
    assert.match((await linkStep.getAttribute('title')) ?? '', /^skipped: an iperf3 server speaks no Longhaul/);
    assert.equal(await page.getByRole('button', { name: 'Plan a sweep instead' }).count(), 0);
    // The path's rate is the path's, whoever the partner is: the verdict and what-if use it here too
    // (1 Gbit/s on loopback, where the run carries far more: see the Results below).
    await page.getByLabel('Path rate (optional)').fill('1gbit');
    await page.getByText('1.00 Gbit/s: the verdict, advice and what-if name the window that fills it').waitFor();
    await shot(page, '40b-iperf3-test');
    await page.getByRole('button', { name: 'Start the test' }).click();

    await page.getByRole('heading', { name: 'Running' }).waitFor({ timeout: 15_000 });
    const first = await waitForPoints(page, 3);
    const later = await waitForPoints(page, first + 3);
    assert.ok(later > first, `the chart grew from ${first} to ${later} points`);
    assert.equal(await page.getByRole('button', { name: 'Sender view' }).getAttribute('aria-pressed'), 'true', "opens on this PC's (the sender's) counters");
    await shot(page, '41-iperf3-run');

    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 20_000 });
    await openExplain(page);
    const server: Iperf3Exit = await within(exit, 10_000, 'iperf3 -s -1 after the run');
    assert.equal(server.code, 0, server.stderr);
    assert.match(await page.getByTestId('iperf3-end').innerText(), /The other end ran iperf3 3\.\d+/);
    const shownBytes = Number(await page.getByTestId('total-bytes').getAttribute('data-bytes'));
    // 1 Gbit/s was given for a loopback path that carried far more: the verdict says it left that rate out.
    await page.getByText(/The link's stated rate, 1\.0 Gbit\/s, is below the .* measured, so it is not this path's rate/).waitFor();
    // With the rate left out nothing caps the model on loopback: no chart, one line saying so and why.
    assert.match(
      await page.getByTestId('what-if-none').innerText(),
      /^What-if: nothing to predict above the measured [\d.]+ Gbit\/s: the path rate 1\.0 Gbit\/s was left out/,
    );
    assert.equal(await page.getByTestId('what-if-chart').count(), 0);
    // iperf3 -s sends no samples: the chart draws this PC's sent side, and says so (it drew 0 points before).
    const chart = page.getByTestId('result-chart');
    assert.ok(Number(await chart.getAttribute('data-points')) >= 6, `the result chart has ${await chart.getAttribute('data-points')} points`);
    assert.match((await chart.getAttribute('aria-label')) ?? '', /^Throughput over time, sent, every stream$/);
    await page.getByText('sent by this PC: the other end reported no intervals').waitFor();
    await shot(page, '42-iperf3-results');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '42-iperf3-results-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Stored for History, with the bytes iperf3 -s itself counted.
    const stored = (await readdir(session().dataDir)).filter((n) => n.endsWith('.json'));
    assert.equal(stored.length, 1, stored.join(', '));
    const result = JSON.parse(await readFile(path.join(session().dataDir, stored[0]!), 'utf8')) as LonghaulResult;
    assert.equal(result.partial, false, result.partialReason ?? '');
    assert.equal(result.total.bytes, shownBytes);
    assert.deepEqual(result.pathRate, { bitsPerSecond: 1e9, source: 'given' });
    assert.equal(result.total.bytes, (server.json?.end?.sum_received as { bytes: number } | undefined)?.bytes);
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    await page.getByTestId('history').locator('tbody tr').first().waitFor();
    assert.equal(await page.getByTestId('history').locator('tbody tr').count(), 1);
    await shot(page, '43-iperf3-history');
    assert.deepEqual(errors, []);
  });
});

describe('browser mode: a UDP run against iperf3 -s', { skip, timeout: 90_000 }, () => {
  // A session of its own: the UI's link opens once (issue 42), so a second test cannot reload it.
  const session = uiSession('longhaul-ui-iperf3-udp-');

  it('UDP against iperf3 -s: the Protocol choice is taken, Results show the loss and jitter iperf3 counted, out of order unknown', async () => {
    const page = session().page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 60_000);
    await page.goto(session().url);
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    await page.getByTestId('partner-iperf3').check();
    await page.getByLabel('Partner address').fill(`127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Next without a check' }).click();
    await page.getByLabel('Protocol').selectOption('udp');
    assert.equal(await page.getByRole('button', { name: 'Start the test' }).isDisabled(), false, 'an iperf3 partner takes UDP');
    await page.getByLabel('Bitrate per stream').fill('20M');
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await shot(page, 'udp-4-iperf3-test');
    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    const server: Iperf3Exit = await within(exit, 10_000, 'iperf3 -s -1 after the run');
    assert.equal(server.code, 0, server.stderr);
    await openExplain(page);
    assert.match(await page.getByTestId('udp-total').innerText(), /Datagrams lost: [\d,]+\/[\d,]+ \([\d.]+ %\) Jitter .*: [\d.]+ ms/);
    // iperf3's results carry no out-of-order count: the table says unknown, never 0.
    const row = page.getByTestId('udp-streams').locator('tbody tr').first();
    assert.match(await row.innerText(), /unknown/);
    await page.getByTestId('udp-streams').scrollIntoViewIfNeeded();
    await shot(page, 'udp-5-iperf3-results');
    const stored = (await readdir(session().dataDir)).filter((n) => n.endsWith('.json'));
    const results = await Promise.all(stored.map(async (n) => JSON.parse(await readFile(path.join(session().dataDir, n), 'utf8')) as LonghaulResult));
    const result = results.find((r) => r.params.protocol === 'udp');
    assert.ok(result && !result.partial, result?.partialReason ?? 'a UDP result in History');
    // The datagrams iperf3 -s counted (the highest number it saw) are the ones the result accounts for.
    const theirs = server.json?.end?.sum_received as { packets: number; lost_packets: number } | undefined;
    assert.ok(theirs, "iperf3 -s's receiver line");
    assert.equal(result.total.udp?.datagrams, theirs.packets - theirs.lost_packets);
    assert.deepEqual(errors, []);
  });
});
