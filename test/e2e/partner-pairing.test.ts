/**
 * The Partner step pairs with a new PC and comes back to paired ones, in the app alone:
 * one `longhaul ui` (its own trust folder) in Chromium, and a `longhaul listen` with
 * another trust folder and a known pairing code standing in for the other PC.
 * The check says "not paired yet" with the code field focused and Next blocked; the code
 * pairs; the list shows the PC; Forget (confirmed) removes it. Also: an old verdict goes
 * when the address changes, and "Both on this PC" gives back the partner typed before.
 * Screenshots partner-1… in test/e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { browserMissing, shot, uiSession } from './browser.js';

const skip = browserMissing();
const CODE = 'K7QM-2XRD-9PQT';

describe('browser mode: pairing on the Partner step', { skip: skip ?? false, timeout: 120_000 }, () => {
  const trust = mkdtempSync(path.join(os.tmpdir(), 'longhaul-ui-partner-trust-'));
  const session = uiSession('longhaul-ui-partner-', { env: { LONGHAUL_TRUST_DIR: path.join(trust, 'ui') } });
  after(() => rmSync(trust, { recursive: true, force: true }));

  it('not paired yet → code → paired and listed → forgotten', async (t) => {
    const { page, url } = session();
    const listen = startCli(t, ['listen', '--port', '0', '--bind', '127.0.0.1'], trust, {
      LONGHAUL_TRUST_DIR: path.join(trust, 'other-pc'),
      LONGHAUL_PAIRING_CODE: CODE,
    });
    const port = await waitFor('the listening line', 15_000, () => /listening on [^\s]+:(\d+)/.exec(listen.stdout())?.[1]);
    const [, name, fp] = await waitFor('the identity line', 5000, () => /This PC is (\S+), fingerprint ([0-9A-F ]{19})/.exec(listen.stdout()));
    await waitFor('the pairing code line', 5000, () => listen.stdout().includes(`Pairing code: ${CODE}`));

    await page.goto(url);
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    const address = page.getByLabel('Partner address');
    const next = page.getByTestId('pair-next');
    await page.getByTestId('paired-peers').getByText('None yet').waitFor();

    // An old verdict is about the old address: typing another one clears it.
    await address.fill('127.0.0.1:1');
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('[data-verdict="refused"]').waitFor();
    await address.pressSequentially('0');
    assert.equal(await page.getByTestId('verdict').count(), 0, 'the refused verdict went with the address');

    await address.fill(`127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    const state = page.getByTestId('pairing-state');
    await page.locator('[data-state="not-paired"]').waitFor();
    assert.match(await state.innerText(), /Reachable, not paired yet: type the code shown on the other PC's Waiting screen/);
    assert.match(await state.innerText(), new RegExp(`It says it is ${name}, fingerprint ${fp}`));
    assert.equal(await page.evaluate<string>('document.activeElement?.id'), 'pair-code', 'the code field has the focus');
    assert.equal(await next.isDisabled(), true, 'Next waits for the pairing');
    assert.match(await next.innerText(), new RegExp(`pair with ${name} first`));
    await shot(page, 'partner-1-not-paired');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'partner-1-not-paired-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // A wrong code is refused in the app's words, with the attempts left; the right one pairs.
    await page.getByLabel('Pairing code').fill('AAAA-BBBB-CCCC');
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /wrong pairing code/ })
      .waitFor();
    await shot(page, 'partner-1b-wrong-code');
    await page.getByLabel('Pairing code').fill(CODE.toLowerCase());
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page.locator('[data-state="paired"]').waitFor();
    assert.match(await state.innerText(), new RegExp(`Reachable · paired with ${name} \\(fingerprint ${fp}\\)`));
    assert.equal(await next.isDisabled(), false);
    assert.equal(await next.innerText(), 'Next: the link');
    const row = page.getByTestId('paired-peers').locator('tbody tr');
    await row.first().waitFor();
    assert.equal(await row.count(), 1);
    assert.match(await row.innerText(), new RegExp(`${name}\\s+127\\.0\\.0\\.1\\s`));
    await shot(page, 'partner-2-paired');
    // The other PC may have forgotten this one (its runs are then refused): the code field can be opened by hand.
    await page.getByRole('button', { name: /Pair again with a new code/ }).click();
    assert.equal(await page.evaluate<string>('document.activeElement?.id'), 'pair-code');
    await shot(page, 'partner-2b-pair-again');

    // Coming back: clicking the PC fills its address.
    await address.fill('');
    await row.getByRole('button', { name, exact: true }).click();
    assert.equal(await address.inputValue(), '127.0.0.1');

    // Forget asks first; Keep keeps it, the confirmation forgets it.
    await row.getByRole('button', { name: `Forget ${name}`, exact: true }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    await row.getByRole('button', { name: `Forget ${name}`, exact: true }).click();
    await row.getByRole('button', { name: 'Keep' }).waitFor();
    await shot(page, 'partner-3-forget-confirm');
    await row.getByRole('button', { name: `Forget ${name}`, exact: true }).click();
    await page.getByTestId('paired-peers').getByText('None yet').waitFor();
    await address.fill(`127.0.0.1:${port}`);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('[data-state="not-paired"]').waitFor();
    await shot(page, 'partner-4-forgotten');
    listen.killGroup();
  });

  it('"Both on this PC" then "Run a test from this PC" gives back the partner typed before', async () => {
    const { page } = session();
    await page.getByLabel('Partner address').fill('192.0.2.7:5211');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('button', { name: 'Next: the test' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: /Run a test from this PC/ }).click();
    assert.equal(await page.getByLabel('Partner address').inputValue(), '192.0.2.7:5211');
  });
});
