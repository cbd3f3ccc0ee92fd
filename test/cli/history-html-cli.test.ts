/**
 * `longhaul history --format html`, the HTML report's schedule view, on six seeded hours of a
 * schedule (test/helpers/schedule-seed.ts): one chart per peer and direction, a hostile host name
 * shown as text, nothing to fetch, the verdict change, the failed and partial tests, and the runs
 * grouped by schedule when no schedule is named.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startCli } from '../helpers/cli-process.js';
import { HOSTILE_HOST, seedScheduleLab, SLOTS } from '../helpers/schedule-seed.js';
import { tmpDir } from '../helpers/tmp.js';

const count = (text: string, re: RegExp): number => (text.match(re) ?? []).length;

describe('longhaul history --format html', { timeout: 60_000 }, () => {
  it('--schedule: one chart per peer (two for the --bidir peer), escaped, self-contained', async (t) => {
    const dir = tmpDir(t);
    const data = path.join(dir, 'results');
    const runs = await seedScheduleLab(data, new Date());
    const cli = startCli(t, ['history', '--schedule', 'lab', '--format', 'html', '-o', 'lab.html'], dir, { LONGHAUL_DATA_DIR: data });
    assert.equal(await cli.exited(20_000), 0, cli.stderr());
    assert.match(cli.stderr(), new RegExp(`^${runs} runs \\(.*\\): written to lab\\.html$`, 'm'));
    const html = readFileSync(path.join(dir, 'lab.html'), 'utf8');

    const peers = [...html.matchAll(/<section data-chart data-peer="([^"]*)">/g)].map((m) => m[1]);
    const hostile = HOSTILE_HOST.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    assert.deepEqual(
      peers,
      ['lab-pc (10.0.0.5:5211)', 'branch-pc (192.168.7.20:5211)', 'branch-pc (192.168.7.20:5211)', `${hostile} (10.0.0.66:5211)`],
      'one chart per peer, the --bidir peer one per direction',
    );
    assert.equal(count(html, /<svg /g), 4, 'each chart an inline SVG');
    assert.match(html, /this PC → peer<\/h3>.*peer → this PC<\/h3>/s, "the --bidir peer's directions named");

    assert.doesNotMatch(html, /<script/i, 'the host name <script> is text, never an element');
    assert.ok(html.includes(hostile), 'the hostile host name shown, escaped');
    assert.doesNotMatch(html, /<link |<img |<iframe|@import|url\((?!#)|src=/i, 'nothing to fetch');
    const urls = [...html.matchAll(/\b(?:https?|ftp):\/\/[^\s"'<)]+/gi)].map((m) => m[0]);
    assert.deepEqual([...new Set(urls)], ['http://www.w3.org/2000/svg'], "no URL but SVG's namespace, which is never fetched");

    assert.match(html, /<h1>Longhaul schedule: lab<\/h1>/);
    assert.match(html, new RegExp(`· ${runs} runs · 3 peers: `), 'the header counts runs and peers');
    assert.match(html, /Verdict changes: [\d-]+ [\d:]+Z: link → window\./, "lab-pc's window narrowed: the change is dated");
    assert.match(html, /<rect [^>]*fill="#d3f9d8"><title>link<\/title>/, 'the link-limited span shaded');
    assert.match(html, /<rect [^>]*fill="#fff3bf"><title>window<\/title>/, 'the window-limited span shaded');
    assert.match(html, /path capacity \(--capacity\)/, "lab-pc's capacity drawn as its own series");
    assert.equal(count(html, /path capacity \(--capacity\)/g), 1, 'only where it was measured');
    assert.match(html, /<tr data-failed><td>[^<]+<\/td>.*failed: LH_ERR_TIMEOUT \(no answer from the peer\)/, 'the failed test in the table');
    assert.match(html, /<tr data-partial>.*partial: the partner went away/, 'the partial test in the table');
    assert.match(html, /stroke="#c92a2a"[^>]*><title>[^<]*failed: LH_ERR_TIMEOUT/, 'and on the chart: a cross with its reason');
    assert.equal(count(html, /<tr data-/g) + count(html, /<tr><td>/g), 4 * 10, 'the last 10 runs under each chart');
    assert.match(html, new RegExp(`The last 10 of ${SLOTS} tests, newest first`));
  });

  it('without --schedule: one part per schedule, the runs by hand last', async (t) => {
    const dir = tmpDir(t);
    const data = path.join(dir, 'results');
    await seedScheduleLab(data, new Date());
    const cli = startCli(t, ['history', '--since', '2h', '-f', 'html'], dir, { LONGHAUL_DATA_DIR: data });
    assert.equal(await cli.exited(20_000), 0, cli.stderr());
    const html = cli.stdout();
    const parts = [...html.matchAll(/<section><h2>([^<]*)<\/h2>/g)].map((m) => m[1]);
    assert.deepEqual(parts, ['Schedule lab', 'Schedule voice', 'Started by hand']);
    assert.match(html, /<h1>Longhaul History by schedule<\/h1>/);

    const none = startCli(t, ['history', '--schedule', 'nobody', '-f', 'html'], dir, { LONGHAUL_DATA_DIR: data });
    assert.equal(await none.exited(20_000), 0, none.stderr());
    assert.match(none.stdout(), /<p data-empty>No runs match this filter\.<\/p>/);
  });
});
