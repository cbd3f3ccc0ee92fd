/**
 * End to end, as a user: `longhaul ui`, Chromium on the Waiting screen, the switch "Also answer
 * iperf3 clients": a port already in use is said on the screen and the switch stays off; on a free
 * port a real `iperf3 -c` (Debian's) runs against it, shows live in the chart as a partner's run
 * does, and lands in History with iperf3's byte count. Screenshots go to test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { HAVE_IPERF3, freePort, runIperf3 } from '../helpers/iperf3.js';
import { within } from '../helpers/net.js';
import { browserMissing, shot, waitForPoints, uiSession } from './browser.js';

const skip = browserMissing() ?? (HAVE_IPERF3 ? false : 'no /usr/bin/iperf3');

describe('browser mode: the Waiting screen answers iperf3 clients', { skip, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-ui-iperf3-waiting-');
  let blocker: net.Server | undefined;
  after(async () => {
    await new Promise((r) => (blocker ? blocker.close(r) : r(null)));
  });

  it('port in use → said, switch off; on a free port iperf3 -c runs live and lands in History', async () => {
    const page = session().page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(session().url);
    await page.getByRole('button', { name: /Wait for a partner/ }).click();
    await page.getByLabel('TCP port to listen on').fill('0');
    await page.getByRole('button', { name: 'Start waiting' }).click();
    await page.getByTestId('pairing').waitFor();
    const toggle = page.getByTestId('iperf3-switch');
    assert.equal(await toggle.isChecked(), false, 'off until switched on');
    assert.match(await page.getByTestId('iperf3-panel').innerText(), /Also answer iperf3 clients \(port 5201\)/);

    // Another program holds the port (all addresses, as the server would listen).
    blocker = net.createServer();
    const busyPort = await new Promise<number>((resolve) => blocker!.listen(0, () => resolve((blocker!.address() as net.AddressInfo).port)));
    await page.getByTestId('iperf3-port').fill(String(busyPort));
    await toggle.click();
    const err = page.getByTestId('iperf3-error');
    await err.waitFor();
    assert.match(await err.innerText(), new RegExp(`TCP port ${busyPort} is already in use on this PC`));
    assert.equal(await toggle.isChecked(), false, 'the switch went back off');
    await shot(page, '44-waiting-iperf3-port-in-use');

    const port = await freePort();
    await page.getByTestId('iperf3-port').fill(String(port));
    await toggle.click();
    await page.getByText(`iperf3 -c`, { exact: false }).first().waitFor();
    assert.equal(await toggle.isChecked(), true, 'on');
    assert.equal(await err.count(), 0, 'the old error is gone');
    assert.match(await page.getByTestId('iperf3-panel').innerText(), new RegExp(`-p ${port}`));
    await shot(page, '45-waiting-iperf3-on');

    // Long enough that the chart and the screenshot are taken mid-run on a slow machine.
    const client = runIperf3(['-c', '127.0.0.1', '-p', String(port), '-t', '8', '-P', '2', '-i', '0.5', '-J'], 30_000);
    await page.getByRole('heading', { name: 'A test is running' }).waitFor({ timeout: 15_000 });
    // Waited for, not read once: the peer shows only while the test runs.
    await page
      .getByTestId('iperf3-panel')
      .getByText(/iperf3 client connected from 127\.0\.0\.1/)
      .waitFor({ timeout: 5_000 });
    const first = await waitForPoints(page, 3);
    const later = await waitForPoints(page, first + 2);
    assert.ok(later > first, `the chart grew from ${first} to ${later} points`);
    await shot(page, '46-waiting-iperf3-running');
    const run = await within(client, 30_000, 'iperf3 -c');
    assert.equal(run.code, 0, `${run.stderr} ${run.json?.error ?? ''}`);
    assert.equal(run.json?.error, undefined);
    await page.getByRole('heading', { name: "Last run (this PC's view)" }).waitFor({ timeout: 15_000 });
    assert.equal(await toggle.isChecked(), true, 'still answering after the test');

    // Stored for History, with the bytes iperf3 says the server received.
    const stored = (await readdir(session().dataDir)).filter((n) => n.endsWith('.json'));
    assert.equal(stored.length, 1, stored.join(', '));
    const result = JSON.parse(await readFile(path.join(session().dataDir, stored[0]!), 'utf8')) as LonghaulResult;
    assert.equal(result.schema, 'longhaul.result/1');
    assert.match(result.controller.software, /^iperf3 3\.\d+/);
    assert.equal(result.total.bytes, run.json?.end?.['sum_received']?.bytes);
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    const rows = page.getByTestId('history').locator('tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    await shot(page, '47-waiting-iperf3-history');
    assert.deepEqual(errors, []);
  });
});
