/**
 * The Test step's Protocol, as a user: UDP through the link emulator's satellite preset (4 Mbit/s, 650
 * ms each way) at 8 Mbit/s ends loss-limited, about half the datagrams dropped by the emulated link
 * and the receiving PC dropping none; direct, choosing UDP turns the
 * buffer into a 1460-byte datagram and the rate into 1 Mbit/s, an MSS is refused in UDP's own words,
 * and a run at 8 Mbit/s per stream on "Both on this PC" ends on Results with the asked rate arrived,
 * the datagrams lost of those sent, the jitter and a per-stream UDP table.
 * With a receive buffer far too small for the rate (4 KiB at 200 Mbit/s), the receiving PC's own OS
 * drops datagrams at its socket (Linux counts them): Results says the receiving PC dropped them and
 * the change is a larger Receive buffer, not a lower rate.
 * Results' chart draws the rate and, on its right-hand axis, the datagrams lost per interval (%).
 * Screenshots: test/e2e/screenshots/udp-*.png.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserMissing, openExplain, shot, uiSession, waitForPoints } from './browser.js';

const skip = browserMissing();

describe('Test screen: Protocol UDP', { skip: skip ?? false, timeout: 90_000 }, () => {
  const session = uiSession('longhaul-udp-');

  it('through the emulated satellite link it drops what the link cannot carry; a direct UDP run reads loss and jitter in Results', async () => {
    const { page, url } = session();
    await page.goto(url);
    await page.getByTestId('hostname').waitFor();
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Through the local delay proxy').check();
    await page.locator('[aria-label="Link presets"] button', { hasText: 'Satellite 4 Mbit/s' }).click();
    await page.getByRole('button', { name: 'Next: the test' }).click();

    await page.getByLabel('Protocol').selectOption('udp');
    assert.equal(await page.getByLabel('Datagram size').inputValue(), '1460', "UDP's default datagram");
    assert.equal(await page.getByLabel('Bitrate per stream').inputValue(), '1M', "UDP's default rate, as iperf3's");
    assert.equal(await page.getByTestId('measure-path').count(), 0, 'the path is measured with TCP: no checkbox for UDP');
    await page.getByLabel('Bitrate per stream').fill('8M');
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await shot(page, 'udp-1-through-emulator');
    await page.getByRole('button', { name: 'Start the test' }).click();
    // The Run screen draws, live, what Results draws: the rate and the datagrams lost per interval.
    // The first sample carries the receivers' counts (the run lasts 2 s; the results come 1.3 s after its end).
    await waitForPoints(page, 1, 20_000);
    await page.locator('[data-testid="live-chart"][data-lines="all streams|datagrams lost (%)"]').waitFor({ timeout: 5_000 });
    // No TCP panel for UDP: the receivers' datagram counts instead.
    assert.match(await page.getByTestId('udp-live-lost').innerText(), /^[\d,]+\/[\d,]+ \([\d.]+ %\)$/);
    await shot(page, 'udp-1a-run-screen');
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    const linkVerdict = await page.getByTestId('headline-verdict').innerText();
    const linkWhy = await page.getByTestId('headline-why').innerText();
    // 8 Mbit/s into a 4 Mbit/s link: the link's wire carries 4 × 1,460/1,502 = 3.89 Mbit/s of datagrams, so about
    // half are dropped at its queue (the first 100 ms of queue and the relay's ±1 datagram aside); a busy PC that
    // could not send 8 Mbit/s on time says so instead.
    if (!/CPU-limited/i.test(linkVerdict)) {
      assert.match(linkVerdict, /Loss-limited/i, `${linkVerdict} ${linkWhy}`);
      const lost = /([\d.]+) % of [\d,]+ datagrams lost/.exec(linkWhy);
      assert.ok(lost && Number(lost[1]) > 35 && Number(lost[1]) < 60, linkWhy);
      assert.match(linkWhy, /on the path: the receiving PC dropped none/);
    }
    await shot(page, 'udp-1b-through-emulator-results');

    await page.getByRole('button', { name: 'Change the test' }).click();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'The link' }).waitFor();
    await page.getByLabel('Direct, over the network as it is').check();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    assert.equal(await page.getByLabel('Protocol').inputValue(), 'udp', 'the test step keeps its choices across the link step');
    await page.getByLabel('MSS (largest segment)').fill('1000');
    assert.match(await page.locator('#mss-error').innerText(), /UDP has no MSS/);
    await page.getByLabel('MSS (largest segment)').fill('');
    await page.getByLabel('Bitrate per stream').fill('8M');
    await page.getByLabel('Duration', { exact: true }).fill('2');
    await shot(page, 'udp-2-test-step');

    await page.getByRole('button', { name: 'Start the test' }).click();
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
    const verdict = await page.getByTestId('headline-verdict').innerText();
    const why = await page.getByTestId('headline-why').innerText();
    // Loopback carries 8 Mbit/s without loss; a PC too busy to send it on time says so instead (never the path).
    assert.ok(
      (/Application-limited/i.test(verdict) && /the asked 8\.0 Mbit\/s arrived; [\d.]+ % of [\d,]+ datagrams lost, jitter [\d.]+ ms/.test(why)) ||
        /CPU-limited/i.test(verdict),
      `${verdict}${why}`,
    );
    assert.doesNotMatch(await page.getByTestId('headline').innerText(), /--|-b\b/, "the app names its own controls, not the terminal's flags");
    // The chart: the rate that arrived, and beside it (right-hand axis, %) the datagrams lost per interval.
    assert.equal(await page.getByTestId('result-chart').getAttribute('data-lines'), 'all streams|datagrams lost (%)');
    await openExplain(page);
    assert.match(await page.getByTestId('udp-total').innerText(), /Datagrams lost: [\d,]+\/[\d,]+ \([\d.]+ %\) Jitter .*: [\d.]+ ms/);
    const table = page.getByTestId('udp-streams');
    assert.match(await table.innerText(), /jitter\s+lost\/total\s+out of order\s+sender short/);
    // The table of changes says what the headline says: a higher rate, never "clear the rate" (TCP's paced advice).
    const advice = await page.getByTestId('advice-table').innerText();
    assert.match(advice, /a higher rate, e\.g\. 16M per stream/);
    assert.doesNotMatch(advice, /no pacing|clear Bitrate/);
    assert.equal(await page.getByTestId('window-line').count(), 0, 'no TCP window line for UDP');
    await table.scrollIntoViewIfNeeded();
    await shot(page, 'udp-3-results');
    // The intervals as iperf3's UDP lines: the receiver's jitter and lost/total, not TCP's retransmits and cwnd.
    const intervals = page.getByTestId('intervals-table');
    await intervals.locator('summary').click();
    assert.match(await intervals.locator('summary').innerText(), /per stream: rate, jitter, lost\/total$/);
    assert.match(await intervals.locator('thead').innerText(), /Jitter\s+Lost\/Total/);
    assert.match(await intervals.locator('tbody tr').first().innerText(), /[\d.]+ ms\s+[\d,]+\/[\d,]+ \([\d.]+ %\)/);
    await intervals.scrollIntoViewIfNeeded();
    await shot(page, 'udp-3b-intervals');
  });
});

describe(
  'Test screen: UDP with a receive buffer too small for the rate',
  { skip: skip ?? (process.platform !== 'linux' && 'Linux counts drops per socket'), timeout: 90_000 },
  () => {
    const session = uiSession('longhaul-udp-drops-');

    it('Results puts the loss on the receiving PC and the change on Receive buffer', async () => {
      const { page, url } = session();
      await page.goto(url);
      await page.getByTestId('hostname').waitFor();
      await page.getByRole('button', { name: /Both on this PC/ }).click();
      await page.getByRole('heading', { name: 'The link' }).waitFor();
      await page.getByLabel('Direct, over the network as it is').check();
      await page.getByRole('button', { name: 'Next: the test' }).click();
      await page.getByLabel('Protocol').selectOption('udp');
      // 4 KiB (8 KiB once Linux doubles it: about three datagrams) holds 0.35 ms at 200 Mbit/s: any pause of the receiving loop overflows it.
      await page.getByLabel('Receive buffer per stream').fill('4096');
      await page.getByLabel('Bitrate per stream').fill('200M');
      await page.getByLabel('Duration', { exact: true }).fill('1');
      await page.getByRole('button', { name: 'Start the test' }).click();
      await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 40_000 });
      const verdict = await page.getByTestId('headline-verdict').innerText();
      const why = await page.getByTestId('headline-why').innerText();
      await openExplain(page);
      const drops = await page.getByTestId('udp-receiver-drops').innerText();
      assert.match(drops, /^[\d,]+$/, 'Linux says how many the receiving PC dropped');
      assert.ok(Number(drops.replace(/,/g, '')) > 0, 'the 4 KiB buffer overflowed');
      // A PC too busy to send 200 Mbit/s on time says so first (the sender's verdict comes before the loss's).
      if (!/CPU-limited/i.test(verdict)) {
        assert.match(verdict, /Receiver-limited/i, `${verdict} ${why}`);
        assert.match(why, /the receiving PC \(responder\) dropped [\d,]+ of them itself, its socket buffer full/);
        const advice = await page.getByTestId('advice-table').innerText();
        assert.match(advice, /Receive buffer per stream on the Test step/);
        assert.doesNotMatch(advice, /a lower rate/, 'not the path: a lower rate is not the change');
      }
      await page.getByTestId('udp-total').first().scrollIntoViewIfNeeded();
      await shot(page, 'udp-6-receiver-limited');
      await page.getByTestId('result-chart').scrollIntoViewIfNeeded();
      await shot(page, 'udp-7-loss-chart');
    });
  },
);
