/**
 * End to end, as a user: the Waiting screen of `longhaul ui` in Debian's Chromium
 * says what is wrong with a port (typed or busy), shows the pairing code a new
 * partner types and lists a PC it turned away; a PC with its own trust folder
 * pairs with the code read off the page. Then it serves a real `longhaul run`
 * from the CLI, shows it live, and keeps its result as "Last run".
 * Screenshots 08-10 go to test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli } from '../helpers/cli.js';
import { BIN, stopChild } from '../helpers/processes.js';
import { browserMissing, shot, uiSession, waitForPoints } from './browser.js';

const skip = browserMissing();

describe('browser mode: waiting for a partner', { skip: skip ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-ui-waiting-');

  it('says what is wrong with the port, shows the code, lists a PC it turned away, which then pairs with the code from the page', async (t) => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByRole('button', { name: /Wait for a partner/ }).click();
    const portField = page.getByLabel('TCP port to listen on');
    await portField.fill('70000');
    const portError = page.getByTestId('port-error');
    assert.equal(await portError.innerText(), '70000 is not a port: type a number from 1 to 65535, or 0 for any free port.');
    assert.match((await portField.getAttribute('aria-describedby')) ?? '', /\blport-error\b/, 'the message is tied to the field');
    assert.equal(await page.getByRole('button', { name: 'Start waiting' }).isDisabled(), true);
    await shot(page, '08a-waiting-port-70000');

    // Another program holds the port (all addresses, as the responder listens).
    const blocker = net.createServer();
    const busyPort = await new Promise<number>((resolve) => blocker.listen(0, () => resolve((blocker.address() as net.AddressInfo).port)));
    t.after(() => new Promise((r) => blocker.close(r)));
    await portField.fill(String(busyPort));
    assert.equal(await portError.innerText(), '', 'a port: no message');
    await page.getByRole('button', { name: 'Start waiting' }).click();
    await page.getByText('is already in use on this PC').waitFor();
    const busy = await portError.innerText();
    assert.match(
      busy,
      new RegExp(`^TCP port ${busyPort} is already in use on this PC \\(another Longhaul or program is waiting there\\): choose another port`),
    );
    assert.doesNotMatch(busy, /EADDRINUSE|LH_ERR/);
    await shot(page, '08b-waiting-port-in-use');

    await portField.fill('0');
    await page.getByRole('button', { name: 'Start waiting' }).click();
    const pairing = page.getByTestId('pairing');
    await pairing.waitFor();
    const port = Number(/TCP port (\d+)/.exec(await pairing.innerText())?.[1]);
    const code = (await page.getByTestId('pairing-code').innerText()).trim();
    assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/, 'the code is on the page');
    assert.match(await page.getByTestId('pairing-code-validity').innerText(), /valid for 10 more minutes/);
    assert.match(await page.getByTestId('this-pc').innerText(), /fingerprint [0-9A-F]{4} [0-9A-F]{4} [0-9A-F]{4} [0-9A-F]{4}\./);
    // Copy: to the clipboard where the browser allows it, else the code is selected for Ctrl+C.
    await page.getByRole('button', { name: 'Copy' }).click();
    const copied = page.getByTestId('copy-status');
    await copied.filter({ hasText: /Copied|Selected/ }).waitFor({ timeout: 5000 });
    if (/Selected/.test(await copied.innerText())) assert.equal(String(await page.evaluate('String(getSelection())')).trim(), code);
    await shot(page, '08c-waiting-code');

    // Another PC (its own trust folder) that was never paired tries a run: turned away, and the page says so.
    const otherTrust = await mkdtemp(path.join(os.tmpdir(), 'longhaul-other-pc-'));
    t.after(() => rm(otherTrust, { recursive: true, force: true }));
    const env = { LONGHAUL_TRUST_DIR: otherTrust };
    const refusedRun = await cli(['run', `127.0.0.1:${port}`, '-t', '1'], 30_000, env).done;
    assert.match(refusedRun.stderr, /LH_ERR_NOT_PAIRED/);
    const refused = page.getByTestId('refused');
    await refused.waitFor({ timeout: 10_000 });
    assert.match(
      await refused.innerText(),
      /at 127\.0\.0\.1 \(fingerprint [0-9A-F ]{19}\) tried to connect but is not paired with this PC: give it the code above\./,
    );
    await shot(page, '08d-waiting-refused');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '08d-waiting-refused-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // That PC pairs with the code read off this page; the page shows a fresh code and drops its line.
    const paired = await cli(['pair', `127.0.0.1:${port}`, '--code', code], 30_000, env).done;
    assert.equal(paired.code, 0, paired.stderr);
    await refused.waitFor({ state: 'detached', timeout: 10_000 });
    assert.notEqual((await page.getByTestId('pairing-code').innerText()).trim(), code, 'a new code after use');
    assert.match(await page.getByTestId('pairing-code-validity').innerText(), /valid for 10 more minutes/, 'counted from now, not from the last tick');
    await shot(page, '08e-waiting-paired');
    await page.getByRole('button', { name: 'Stop waiting' }).click();
  });

  it('waits for a partner and shows a CLI run live', async () => {
    // The launch URL is traded for a cookie once (the test above used it): start from the app's own Start button.
    const { page } = session();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('button', { name: /Wait for a partner/ }).click();
    await page.getByLabel('TCP port to listen on').fill('0');
    await page.getByRole('button', { name: 'Start waiting' }).click();
    const pairing = page.getByTestId('pairing');
    await pairing.waitFor();
    const port = Number(/TCP port (\d+)/.exec(await pairing.innerText())?.[1]);
    assert.ok(port > 0, 'the waiting screen shows the port');
    await shot(page, '08-waiting');

    const cli = fork(BIN, ['run', `127.0.0.1:${port}`, '-t', '3', '-i', '0.2', '-P', '2'], { stdio: 'ignore', execArgv: [] });
    // Listened for now: on a slow machine the 3-s run may end while the page is still being read.
    const exited = new Promise<number | null>((r) => cli.once('exit', r));
    try {
      await page.getByRole('heading', { name: 'A test is running' }).waitFor({ timeout: 15_000 });
      await waitForPoints(page, 3);
      await shot(page, '09-waiting-running');
      assert.equal(await exited, 0);
      await page.getByRole('heading', { name: "Last run (this PC's view)" }).waitFor({ timeout: 15_000 });
      await shot(page, '10-waiting-done');
    } finally {
      await stopChild(cli);
    }
    await page.getByRole('button', { name: 'Stop waiting' }).click();
  });
});
