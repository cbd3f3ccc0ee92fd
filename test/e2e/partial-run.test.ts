/**
 * A partial run in the app shows what was measured: the app runs against a `longhaul listen` (another
 * process, as a remote PC), which is killed mid-run, so its end-of-run report never comes. Results then
 * lead with the rate over the seconds measured, labelled "partial: over the N.N s measured" (the figure
 * the stored result carries), and "Why not faster?" gives the verdict of what was measured, not
 * "Nothing was measured". Screenshot: test/e2e/screenshots/27-results-partial.png.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { formatRate } from '../../electron/contract/units.js';
import { VERDICT_LABELS } from '../../electron/contract/verdict-labels.js';
import { forkLonghaul, stopChild } from '../helpers/processes.js';
import { browserMissing, openExplain, shot, uiSession, waitForPoints } from './browser.js';

const skip = browserMissing();

describe('a partial run in the app', { skip: skip ?? false, timeout: 120_000 }, () => {
  const session = uiSession('longhaul-partial-run-');
  let responder: ChildProcess | undefined;
  let responderPort = 0;

  before(async () => {
    const r = await forkLonghaul<{ type: 'listening'; port: number }>(['listen', '--port', '0', '--bind', '127.0.0.1'], 'listening');
    responder = r.child;
    responderPort = r.msg.port;
  });

  after(async () => {
    await stopChild(responder);
  });

  it('partner killed mid-run: the headline is the rate over the seconds measured, labelled partial; "Why not faster?" judges it', async () => {
    const { page, url, dataDir } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    await page.getByLabel('Partner address').fill(`127.0.0.1:${responderPort}`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('[data-verdict="reachable"]').waitFor();
    await page.getByRole('button', { name: 'Next: the link' }).click();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Duration', { exact: true }).fill('10');
    await page.getByLabel('Sample interval').fill('0.5');
    await page.getByRole('button', { name: 'Start the test' }).click();

    await page.getByRole('heading', { name: 'Running' }).waitFor({ timeout: 20_000 });
    // Three points: the partner has sent samples with its counts in them.
    await waitForPoints(page, 3, 20_000);
    responder?.kill('SIGKILL');

    await page.getByRole('heading', { name: 'Results (partial)' }).waitFor({ timeout: 20_000 });
    const stored = (await readdir(dataDir)).filter((n) => n.endsWith('.json'));
    assert.equal(stored.length, 1, `one result in History: ${stored.join(', ')}`);
    const result = JSON.parse(await readFile(path.join(dataDir, stored[0]!), 'utf8')) as LonghaulResult;
    const p = result.total.partialRate;
    assert.ok(p && result.total.bytes > 0, `a partial rate in the stored result: ${JSON.stringify(result.total)}`);
    assert.ok(Math.abs(p.bitsPerSecond - (result.total.bytes * 8) / p.seconds) <= 1e-9 * p.bitsPerSecond, 'bytes × 8 / seconds');

    assert.equal(await page.getByTestId('headline-rate').innerText(), formatRate(p.bitsPerSecond));
    assert.match(await page.getByTestId('run-announcer').innerText(), /^Finished early: \S+ \S+ \(partial: over the [\d.]+ s measured\)\.$/);
    assert.match(await page.getByTestId('headline-rate-name').innerText(), /^partial: over the [\d.]+ s measured$/);
    assert.doesNotMatch(await page.getByTestId('headline').innerText(), /unknown|nothing arrived/);
    assert.ok(await page.getByTestId('headline-verdict').count(), 'a verdict in the headline');
    await openExplain(page);
    const why = await page.getByTestId('diagnosis').innerText();
    assert.doesNotMatch(why, /Nothing was measured/);
    const d = result.diagnosis?.[0];
    assert.ok(d && d.case !== 'unknown/nothing-measured', `the stored verdict: ${JSON.stringify(d?.case)}`);
    assert.equal(await page.getByTestId('verdict').first().innerText(), `${VERDICT_LABELS[d.verdict]}.`, "the stored result's verdict is shown");
    assert.match(await page.getByTestId('partial-rate').first().innerText(), /^Rate \(partial: over the [\d.]+ s measured\): [\d.]+ [kMG]bit\/s$/);
    assert.match(await page.getByTestId('total-bytes').first().locator('..').innerText(), /received \(partial: over the [\d.]+ s measured\)$/);
    const whatIf = page.getByTestId('what-if-lines');
    if (await whatIf.count()) assert.doesNotMatch(await whatIf.innerText(), /measured unknown/, 'the what-if compares with the rate measured');
    // The banner's error names the partner as the header does, never "the peer".
    assert.doesNotMatch(await page.locator('main').innerText(), /the peer\b/);
    // The stream table: each stream's seconds measured and its rate over them, labelled, never "unknown".
    const rates = await page.getByTestId('stream-rate').allInnerTexts();
    assert.equal(rates.length, result.streams.length);
    result.streams.forEach((s, i) => {
      const sp = s.partialRate;
      assert.ok(sp, `stream ${s.id} has a partial rate: ${JSON.stringify(s)}`);
      assert.match(rates[i]!, /^\S+ \S+\npartial: over the [\d.]+ s measured$/);
      assert.ok(rates[i]!.startsWith(formatRate(sp.bitsPerSecond)), rates[i]);
    });
    for (const secs of await page.getByTestId('stream-seconds').allInnerTexts()) assert.doesNotMatch(secs, /unknown/);
    await shot(page, '27-results-partial');
  });
});
