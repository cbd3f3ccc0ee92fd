/**
 * axe-core on every screen reachable without a second PC, in the light and the
 * dark theme: Start, Partner, Link, Test, Waiting, History, Sweep, and Run and
 * Results through "Both on this PC" → Direct → a short run of 4 streams. No serious or
 * moderate violation may remain (each is printed when one does), and no screen
 * may scroll sideways in a 1024 or a 1366 px window (scrollbars shown). Then the
 * keyboard alone: the skip link comes first, and after each step change focus
 * is on the new screen's heading, whose name the window title carries.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { REPO } from '../helpers/processes.js';
import { browserMissing, shot, shotAtWidths, sidewaysScroll, uiSession, openExplain } from './browser.js';

const skip = browserMissing();
const AXE = path.join(REPO, 'node_modules', 'axe-core', 'axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe's violations on the page now at impact moderate or worse, as readable lines ([] when clean). */
async function axeProblems(page: Page, where: string): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's Content-Security-Policy allows only its own scripts.
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(await readFile(AXE, 'utf8'));
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => r.violations)`,
  );
  return violations
    .filter((v) => v.impact === 'moderate' || v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${where}: [${v.impact}] ${v.id} (${v.help}) at ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
}

/** What has keyboard focus: tag name and text. */
const focused = (page: Page): Promise<{ tag: string; text: string }> =>
  page.evaluate<{ tag: string; text: string }>('({ tag: document.activeElement?.tagName ?? "", text: document.activeElement?.textContent?.trim() ?? "" })');

describe('accessibility', { skip: skip ?? false, timeout: 150_000 }, () => {
  const session = uiSession('longhaul-a11y-');
  let traded = false;
  /** The app's page: the launch URL's one-time token the first time, the bare address (session cookie) after. */
  async function openApp(page: Page, url: string): Promise<void> {
    await page.goto(traded ? new URL('/', url).href : url);
    traded = true;
    await page.getByTestId('hostname').waitFor();
  }

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or moderate axe violation on any screen (${scheme} theme)`, async () => {
      const { page, url } = session();
      await page.emulateMedia({ colorScheme: scheme });
      await openApp(page, url);
      const problems: string[] = [];
      const check = async (name: string): Promise<void> => {
        // Both laptop widths: nothing may scroll the page sideways (a wide table scrolls inside its card, or wraps).
        problems.push(...(await shotAtWidths(page, `a11y-${scheme}-${name}`)));
        problems.push(...(await axeProblems(page, `${name} (${scheme})`)));
      };
      // The sideways check is first shown to catch a page that is too wide.
      // (Set through the CSSOM: the page's Content-Security-Policy ignores a style attribute.)
      await page.evaluate(
        `{ const d = document.createElement('div'); d.id = 'too-wide'; d.style.width = '1400px'; d.textContent = 'too wide'; document.body.append(d); }`,
      );
      assert.equal((await sidewaysScroll(page, 'bad sample')).length, 1, 'a 1400 px block is caught');
      await page.evaluate(`document.getElementById('too-wide').remove()`);
      await check('start');
      await page.getByRole('button', { name: /Run a test from this PC/ }).click();
      await page.getByLabel('Partner address').waitFor();
      await check('partner');
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.getByRole('button', { name: /Wait for a partner/ }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await check('waiting');
      await page.getByRole('navigation').getByRole('button', { name: 'Sweep' }).click();
      await page.getByRole('heading', { name: /^Sweep/ }).waitFor();
      await check('sweep');
      await page.getByRole('navigation').getByRole('button', { name: 'Schedules' }).click();
      await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New schedule' }).click();
      await page.getByRole('form', { name: 'New schedule' }).waitFor();
      await check('schedules');
      await page.getByRole('navigation').getByRole('button', { name: 'Start' }).click();
      await page.getByRole('button', { name: /Both on this PC/ }).click();
      await page.getByRole('heading', { name: 'The link' }).waitFor();
      await page.getByLabel('Through the local delay proxy').check();
      await check('link-proxy');
      await page.getByLabel('Direct, over the network as it is').check();
      await check('link');
      await page.getByRole('button', { name: 'Next: the test' }).click();
      await page.getByLabel('Parallel streams').fill('0');
      await check('test-with-error');
      await page.getByLabel('Parallel streams').fill('4');
      await page.getByLabel('Duration', { exact: true }).fill('3');
      await page.getByLabel('Sample interval').fill('0.5');
      await page.getByRole('button', { name: 'Start the test' }).click();
      await page.getByTestId('live-chart').waitFor();
      await check('run');
      await page.getByRole('heading', { name: /^Results/ }).waitFor({ timeout: 30_000 });
      await openExplain(page);
      await check('results');
      await page.getByRole('navigation').getByRole('button', { name: 'History' }).click();
      await page.getByTestId('history').waitFor();
      await check('history');
      if (problems.length) console.log(problems.join('\n'));
      assert.deepEqual(problems, []);
    });
  }

  it("starts keyboard users at the skip link, and puts focus on each new screen's heading", async () => {
    const { page, url } = session();
    await page.emulateMedia({ colorScheme: 'light' });
    await openApp(page, url);
    assert.equal(await page.title(), 'Start — Longhaul');
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(page), { tag: 'A', text: 'Skip to content' }, 'the skip link is the first thing Tab reaches');
    await page.keyboard.press('Enter');
    assert.deepEqual(await focused(page), { tag: 'H1', text: 'How fast does TCP really go between two PCs?' });
    // Tab on from the heading to "Run a test from this PC", Enter: the Partner step, focus on its heading.
    for (let i = 0; i < 5 && !(await focused(page)).text.startsWith('Run a test from this PC'); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByLabel('Partner address').waitFor();
    assert.equal((await focused(page)).tag, 'H1');
    assert.equal(await page.title(), 'Partner — Longhaul');
    await shot(page, 'a11y-keyboard-partner');
    // Header buttons by keyboard: Shift+Tab back to "History" in the header, Enter.
    for (let i = 0; i < 6 && (await focused(page)).text !== 'History'; i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'History', exact: true }).waitFor();
    assert.deepEqual(await focused(page), { tag: 'H1', text: 'History' });
    assert.equal(await page.title(), 'History — Longhaul');
  });

  it('runs a whole test by keyboard alone, hearing the phases and the final rate in the live region', async () => {
    const { page, url } = session();
    await page.emulateMedia({ colorScheme: 'light' });
    await openApp(page, url);
    /** Tab (bounded) until the focused element's text or label starts with `text`. */
    const tabTo = async (text: string): Promise<void> => {
      for (let i = 0; i < 40; i++) {
        const f = await page.evaluate<string>(
          '(document.activeElement?.getAttribute("aria-label") ?? "") + "|" + (document.activeElement?.textContent?.trim() ?? "") + "|" + (document.activeElement?.labels?.[0]?.textContent?.trim() ?? "")',
        );
        if (f.split('|').some((x) => x.startsWith(text))) return;
        await page.keyboard.press('Tab');
      }
      assert.fail(`Tab did not reach "${text}" within 40 presses`);
    };
    /** Wait (bounded; the page's CSP forbids waitForFunction's eval) for the step's title, then check the focus is on its heading. */
    const heading = async (title: string, ms = 15_000): Promise<void> => {
      const deadline = Date.now() + ms;
      while ((await page.title()) !== `${title} — Longhaul`) {
        if (Date.now() > deadline) assert.fail(`the window title did not become "${title} — Longhaul" within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Focus follows the screen once it is in the DOM: give it a moment, bounded.
      for (let i = 0; i < 20 && (await focused(page)).tag !== 'H1'; i++) await page.waitForTimeout(100);
      assert.equal((await focused(page)).tag, 'H1', `focus on the ${title} heading`);
    };
    await tabTo('Both on this PC');
    await page.keyboard.press('Enter');
    await heading('Link');
    await tabTo('Direct, over the network as it is');
    await page.keyboard.press('Space');
    await tabTo('Next: the test');
    await page.keyboard.press('Enter');
    await heading('Test');
    await tabTo('Duration');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2');
    await tabTo('Start the test');
    await page.keyboard.press('Enter');
    await heading('Run');
    const announcer = page.getByTestId('run-announcer');
    await heading('Results', 30_000);
    assert.match(await announcer.innerText(), /^Finished: [\d.]+ [kMGT]?bit\/s wall-clock aggregate/);
    await shot(page, 'a11y-keyboard-results');
  });
});
