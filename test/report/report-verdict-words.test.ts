/**
 * The console summary and the HTML report say a verdict in words (its label, as the Results
 * screen does), never its key; and both state the bypass caveat the Results screen shows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnosis, LonghaulResult } from '../../electron/contract/result.js';
import type { LinkInfo } from '../../electron/contract/link-info.js';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { formatSummary } from '../../electron/report/summary-block.js';
import { makeResult } from '../helpers/result-fixtures.js';

function diagnosis(direction: Diagnosis['direction'], verdict: Diagnosis['verdict'], sentence: string): Diagnosis {
  return { direction, verdict, sentence, numbers: {} as Diagnosis['numbers'] };
}

function result(): LonghaulResult {
  return makeResult({ streams: [{ bytes: 650_000, seconds: 1.3, completions: 10 }] });
}

describe('reports: verdict words and the bypass caveat', () => {
  it('one direction: "Limiter: CPU-limited.", not the key cpu-limited', () => {
    const r = result();
    r.diagnosis = [diagnosis('controllerToResponder', 'cpu-limited', 'One core was busy 99 % of the run.')];
    const text = formatSummary(r);
    assert.match(text, /^Limiter: CPU-limited\. One core was busy/m);
    assert.doesNotMatch(text, /cpu-limited/);
    assert.doesNotMatch(formatHtmlReport(r), /cpu-limited/);
  });

  it('both directions: each line names its verdict by label', () => {
    const r = result();
    r.diagnosis = [
      diagnosis('controllerToResponder', 'window-limited', 'The window is full every round trip.'),
      diagnosis('responderToController', 'mss-limited', 'Small segments.'),
    ];
    const text = formatSummary(r);
    assert.match(text, /^ {2}controller -> responder: Window-limited\. The window/m);
    assert.match(text, /^ {2}responder -> controller: MSS-limited\. Small segments/m);
    assert.doesNotMatch(text, /window-limited|mss-limited/);
  });

  it('a run bypassed for part of its time: the summary and the HTML report say so, a direct run does not', () => {
    const r = result();
    r.diagnosis = [diagnosis('controllerToResponder', 'unknown', 'The link emulator was bypassed during the run.')];
    assert.doesNotMatch(formatSummary(r), /bypass was on/);
    const link: LinkInfo = {
      emulator: 'longhaul-proxy',
      preset: null,
      settings: null,
      chains: { up: [], down: [] },
      modelCeilingBitsPerSec: null,
      bypassToggles: [
        { t: 0.2, bypass: true },
        { t: 0.8, bypass: false },
      ],
      note: 'user-space relay',
    };
    r.link = link;
    const caveat = /The link bypass was on for 0\.6 s of this run: the totals and the verdict above mix the emulated link with the unshaped local path\./;
    assert.match(formatSummary(r), caveat);
    assert.match(formatHtmlReport(r), /<p data-bypass-caveat><b>The link bypass was on for 0\.6 s/);
  });
});
