/**
 * End to end, as a user: the Waiting screen of `longhaul ui` in Debian's Chromium
 * serves a real `longhaul run` from the CLI, shows it live, and keeps its result
 * as "Last run". Screenshots 08-10 go to test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { describe, it } from 'node:test';
import { BIN, stopChild } from '../helpers/processes.js';
import { browserMissing, shot, uiSession, waitForPoints } from './browser.js';

const skip = browserMissing();

describe('browser mode: waiting for a partner', { skip: skip ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-ui-waiting-');

  it('waits for a partner and shows a CLI run live', async () => {
    const { page, url } = session();
    await page.goto(url);
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
