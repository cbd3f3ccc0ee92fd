/**
 * End to end, as a user with no terminal: `longhaul ui` and Debian's Chromium, two paired
 * `longhaul listen` partners on 127.0.0.1. On the Schedules screen: a schedule set up with the form
 * runs its first round at once (each partner's rate and limit shown), is paused, edited (every hour:
 * the next round shown), its file broken by hand (the line and reason on its card, the schedule going
 * on), a schedule to a PC that does not answer gives a notice on every screen, a delete asks first;
 * no sideways scroll at 1024×768; /metrics for Prometheus turned on from the screen and served. Screenshots: test/e2e/screenshots/45-schedules-*.png.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadTrust } from '../../electron/security/load-trust.js';
import { pairedListeners } from '../helpers/listeners.js';
import { browserMissing, shot, uiSession } from './browser.js';

const skip = browserMissing();

/** A port free now on 127.0.0.1. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('Schedules in browser mode', { skip: skip ?? false, timeout: 150_000 }, () => {
  const session = uiSession('longhaul-schedules-ui-');

  it("sets up a schedule with the form, shows each partner's last test, pauses, edits, shows a broken file and a failure notice", async (t) => {
    const { page, url, dataDir } = session();
    const mine = await loadTrust();
    const [a, b] = await pairedListeners(t, mine, ['ui-sched-a', 'ui-sched-b'], mine, false);
    const peers = [`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`];
    await page.goto(url);
    await page.getByRole('button', { name: 'Schedules', exact: true }).click();
    await page.getByTestId('schedules-empty').waitFor();

    // The form: a wrong interval is said on its field, then fixed.
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name').fill('lab');
    await form.getByLabel('Interval').fill('2s');
    await form.getByLabel('Partners').fill(peers.join(', '));
    await form.getByLabel('Each test lasts').fill('0.5');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form
      .locator('#sc-every-error')
      .filter({ hasText: /at least 2.5 s|between 5 s/ })
      .waitFor();
    await form.getByLabel('Interval').fill('6s');
    await shot(page, '45-schedules-0-form');
    await form.getByRole('button', { name: 'Save schedule' }).click();

    const card = page.getByTestId('schedule').filter({ has: page.getByRole('heading', { name: 'lab' }) });
    await card.getByText('every 6s · TCP, 1 stream, 0.5 s, this PC sends').waitFor();
    // The first round runs at once: both partners' rows get a rate and a limit.
    for (const p of peers)
      await card
        .locator('tr', { hasText: p })
        .getByText(/bit\/s/)
        .waitFor({ timeout: 30_000 });
    await shot(page, '45-schedules-1-running');
    const plan = path.join(dataDir, 'schedules', 'lab.plan.json');
    assert.match(await readFile(plan, 'utf8'), /"every": "6s"/, 'the plan is the file longhaul schedule reads');

    // /metrics for Prometheus from the screen: on, this PC only, a port; the URL and the scrape config shown, served.
    const metricsPort = await freePort();
    const panel = page.getByTestId('metrics-panel');
    await panel.getByText('Off.').waitFor();
    await panel.getByLabel("Serve the schedules' results at /metrics for Prometheus").check();
    await panel.getByLabel('Port').fill(String(metricsPort));
    await panel.getByRole('button', { name: 'Save' }).click();
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await panel.getByText(metricsUrl).waitFor();
    await panel.getByTestId('metrics-scrape').getByText(`'127.0.0.1:${metricsPort}'`).waitFor();
    const served = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
    assert.match(served, /longhaul_throughput_bits_per_second\{schedule="lab",peer="127\.0\.0\.1:\d+",direction="to-peer"\}/);
    assert.match(served, /longhaul_schedule_interval_seconds\{schedule="lab"\} 6\n/);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, '45-schedules-5-metrics');

    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByText('Paused', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit schedule lab' });
    await edit.getByLabel('Interval').fill('1h');
    await edit.getByLabel('Keep it paused').uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await card.getByText(/^Next round in \d+ (s|min)/).waitFor({ timeout: 15_000 });

    // A hand edit that breaks the file: its line and reason on the card; the schedule goes on as it was.
    const good = await readFile(plan, 'utf8');
    await writeFile(plan, good.replace('"every": "1h"', '"every": 1h'));
    const problem = card.getByTestId('schedule-problem');
    await problem.filter({ hasText: /line 4, column \d+: not JSON: .* it goes on as it was until the file is fixed/ }).waitFor({ timeout: 15_000 });
    await shot(page, '45-schedules-2-broken-file');
    await writeFile(plan, good);
    await problem.waitFor({ state: 'detached', timeout: 15_000 });

    // A partner that does not answer: the failure is a notice, on another screen too.
    await page.getByRole('button', { name: 'New schedule' }).click();
    const other = page.getByRole('form', { name: 'New schedule' });
    await other.getByLabel('Name').fill('gone');
    await other.getByLabel('Interval').fill('1h');
    await other.getByLabel('Partners').fill('127.0.0.1:1');
    await other.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('button', { name: 'History', exact: true }).first().click();
    const notice = page.getByTestId('schedule-notices');
    await notice.getByText(/Scheduled test "gone" to 127\.0\.0\.1:1 failed \(LH_ERR_[A-Z_]+\)/).waitFor({ timeout: 30_000 });
    await shot(page, '45-schedules-3-notice');
    await notice.getByRole('button', { name: 'Schedules' }).click();
    const gone = page.getByTestId('schedule').filter({ has: page.getByRole('heading', { name: 'gone' }) });
    await gone.getByText(/failed: LH_ERR_/).waitFor();

    await page.setViewportSize({ width: 1024, height: 768 });
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    await shot(page, '45-schedules-4-1024');
    assert.ok(width <= 1024, `the page is ${width} px wide at 1024`);
    await page.setViewportSize({ width: 1366, height: 768 });

    await gone.getByRole('button', { name: 'Delete…' }).click();
    await gone.getByRole('button', { name: 'Delete', exact: true }).click();
    await gone.waitFor({ state: 'detached' });
    await card.waitFor();
  });
});
