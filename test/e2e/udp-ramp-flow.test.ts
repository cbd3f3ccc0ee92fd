/**
 * The UDP ramp from the app, as a user: "Both on this PC", through the link emulator at 8 Mbit/s,
 * Protocol UDP, "Find the rate the path carries" ticked (the Duration becomes each step's), Start the
 * ramp. The Ramp screen draws each step as it ends and answers with the rate the emulated link
 * carries, in the app's words (Bitrate, not -b); "Run at Bitrate …" fills the Test step for one run
 * at the rate found; History lists the ramp and opens it again.
 * Screenshots: test/e2e/screenshots/udp-ramp-*.png.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, shot, uiSession } from './browser.js';

const skip = browserMissing();

/** The emulated link's wire rate, bit/s, and the UDP payload it carries: 1,460 B of every 1,502 on the wire. */
const LINK_BPS = 8e6;
const PAYLOAD_BPS = (LINK_BPS * 1460) / 1502;

describe('Test screen: the UDP ramp', { skip: skip ?? false, timeout: 120_000 }, () => {
  const session = uiSession('longhaul-udp-ramp-');

  it('finds the rate an emulated 8 Mbit/s link carries, step by step, and offers a run at it', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Through the local delay proxy').check();
    await page.locator('[aria-label="Link presets"] button', { hasText: 'LAN 1 Gbit/s' }).click();
    await page.getByLabel('Link rate (each way)').fill('8mbit');
    await page.getByLabel('Round-trip time').fill('10ms');
    await page.getByRole('button', { name: 'Next: the test' }).click();

    await page.getByLabel('Protocol').selectOption('udp');
    assert.equal(await page.getByTestId('ramp-choice').count(), 1, 'UDP offers the ramp');
    await page.getByTestId('ramp-choice').locator('input').check();
    assert.equal(await page.getByLabel('Duration', { exact: true }).inputValue(), '3', "the Duration becomes the ramp's step, as --udp-ramp's");
    assert.equal(await page.getByLabel('Loss allowed per step').inputValue(), '1%');
    // Both ways at once is not one rate: said on the Direction, and the ramp cannot start.
    await page.getByLabel('Direction').selectOption('bidir');
    assert.equal(await page.getByRole('button', { name: 'Start the ramp' }).isDisabled(), true, 'a ramp finds one direction');
    await page.getByLabel('Direction').selectOption('forward');
    await page.getByLabel('Bitrate per stream').fill('4M');
    // Half-second steps keep the test short: 340 datagrams a step at 8 Mbit/s, so 1 % is 3 of them.
    await page.getByLabel('Duration', { exact: true }).fill('0.5');
    await shot(page, 'udp-ramp-1-test-step');
    await page.getByRole('button', { name: 'Start the ramp' }).click();

    await page.getByRole('heading', { name: 'The rate the path carries (UDP ramp)' }).waitFor();
    // Each step is 0.5 s, a 1 s pause and about a second of set-up (the emulator's process, the session); 8 to 10 steps.
    await page.locator('[data-testid="ramp-status"]:not([data-state="running"])').waitFor({ timeout: 90_000 });
    const end = await page.getByTestId('ramp-status').getAttribute('data-state');
    const answer = await page.getByTestId('ramp-answer').innerText();
    const rows = await page.locator('[data-testid="ramp-steps"] tbody tr').count();
    assert.ok(rows >= 3, `${rows} steps: at least one carried, one dropped and one between`);
    assert.equal(await page.getByTestId('ramp-chart').getAttribute('data-points'), String(rows), 'a point per step');
    assert.doesNotMatch(answer, /-b\b|-w\b|--/, "the app names its own controls, not the terminal's flags");
    // A PC too busy to send on time ends the ramp at its own limit, and says so; otherwise the link's rate is found.
    if (end !== 'sender-limit') {
      assert.equal(end, 'found', answer);
      assert.match(
        answer,
        /^Result: the path carries [\d.]+ [kMG]bit\/s \(Bitrate [\d.]+[kMG]?: [\d.]+ % lost, jitter [\d.]+ ms\) with at most 1 % lost; at Bitrate/,
      );
      const carried = /carries ([\d.]+) Mbit\/s/.exec(answer);
      assert.ok(carried, answer);
      // What arrived at the highest step carried is at most the link's payload rate (7.78 Mbit/s; +5 %: the rate is read
      // between the first and the last arrival of half a second) and at least 80 % of it (the ramp narrows the rate asked to
      // 2.5 %, and a step just above the link's rate is carried while the emulator's 64 KiB queue holds the excess).
      const bps = Number(carried[1]) * 1e6;
      assert.ok(bps <= PAYLOAD_BPS * 1.05 && bps >= PAYLOAD_BPS * 0.8, `${answer} (payload rate ${PAYLOAD_BPS})`);
    }
    await shot(page, 'udp-ramp-2-answer');

    const runAt = page.getByTestId('ramp-run-at');
    const label = await runAt.innerText();
    await runAt.click();
    await page.getByRole('heading', { name: 'The test' }).waitFor();
    assert.equal(`Run at Bitrate ${await page.getByLabel('Bitrate per stream').inputValue()}`, label);
    assert.equal(await page.getByRole('button', { name: 'Start the test' }).count(), 1, 'one run, the ramp unticked');

    await page.getByRole('navigation').getByRole('button', { name: 'History' }).click();
    const history = page.getByTestId('ramp-history');
    await history.locator('tbody tr').first().waitFor();
    assert.match(await history.innerText(), /127\.0\.0\.1:\d+/);
    await history.scrollIntoViewIfNeeded();
    await shot(page, 'udp-ramp-3-history');
    await history
      .getByRole('button', { name: /^Open the ramp/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'The rate the path carries (UDP ramp)' }).waitFor();
    assert.equal(await page.getByTestId('ramp-answer').innerText(), answer, 'the stored ramp reads as it ended');
  });
});
