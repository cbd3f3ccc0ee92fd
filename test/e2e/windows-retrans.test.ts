/**
 * The Run screen's TCP panel with a Windows-shaped reading: Windows counts retransmitted bytes, not
 * segments, so the engine's count is bytes ÷ MSS and the panel must say it is an estimate (and keep
 * "unknown" where there is no count). A real loopback run in browser mode, with the UI server's
 * `onSample` events rewritten on their way to the page (Playwright's WebSocket route) as a Windows
 * sender's readings would arrive: an estimated count with the bytes behind it. Screenshots at 1366 and
 * 1024 px go to test/e2e/screenshots/run-tcp-panel-windows-*.png.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LiveTcp, WireMessage } from '../../electron/contract/api.js';
import { browserMissing, SCREENSHOTS, shot, uiSession, openExplain } from './browser.js';

const skip = browserMissing();
const RETRANS_BYTES = 17_376; // 12 segments of 1,448 B

/** A Linux sender's live reading as a Windows sender's would be: the count from BytesRetrans ÷ MSS, labelled. */
function windowsShaped(x: LiveTcp): LiveTcp {
  return { ...x, totalRetransSegments: 12, retransSource: 'estimated', bytesRetrans: RETRANS_BYTES };
}

describe('Run screen TCP panel, Windows-shaped readings', { skip: skip ?? false, timeout: 120_000 }, () => {
  const session = uiSession('longhaul-windows-retrans-');

  it('shows an estimated retransmit count as ≈N with where it comes from, never as a plain count', async () => {
    const { page, url } = session();
    let rewritten = 0;
    await page.routeWebSocket(/.*/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const msg = JSON.parse(String(m)) as WireMessage;
        if (msg.kind === 'event' && msg.name === 'onSample') {
          const p = msg.payload as { tcp?: LiveTcp[] };
          if (p.tcp) {
            p.tcp = p.tcp.map(windowsShaped);
            rewritten++;
          }
          ws.send(JSON.stringify(msg));
          return;
        }
        ws.send(m);
      });
    });
    await page.goto(url);
    await page.getByRole('button', { name: /Both on this PC/ }).click();
    await page.getByRole('button', { name: 'Next: the test' }).click();
    await page.getByLabel('Parallel streams').fill('1');
    await page.getByLabel('Duration', { exact: true }).fill('4');
    await page.getByLabel('Sample interval').fill('0.5');
    await page.getByRole('button', { name: 'Start the test' }).click();
    const cell = page.getByTestId('retrans-now');
    await cell.filter({ hasText: /≈/ }).waitFor({ timeout: 20_000 });
    const text = (await cell.innerText()).replace(/\s+/g, ' ').trim();
    assert.match(text, /^≈12 segments \(estimated from 17,376 B retransmitted\)$/, text);
    assert.match((await cell.getAttribute('title')) ?? '', /Windows counts retransmitted bytes, not segments/);
    assert.ok(rewritten > 0, 'the samples went through the route');
    for (const width of [1366, 1024]) {
      await page.setViewportSize({ width, height: 768 });
      await page.waitForTimeout(600); // the chart redraws at most every 500 ms
      await page.getByTestId('tcp-panel').screenshot({ path: path.join(SCREENSHOTS, `run-tcp-panel-windows-${width}.png`) });
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await shot(page, 'run-windows-retrans');
    await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
    await openExplain(page);
  });
});
