/**
 * The detail's words from a finding's data alone: every case renders a sentence, the small-MSS words
 * (moved from the analysis), notes in the order found, and no word depends on anything but the finding.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detailText, savedDetail } from '../../electron/contract/detail-text/index.js';
import type { FindingData } from '../../electron/contract/detail-text/words.js';
import { DIAGNOSIS_CASES, fig } from '../../electron/contract/finding.js';
import { mssFindingData } from '../../electron/analysis/mss-verdict.js';

function numbers(over: Partial<FindingData['numbers']> = {}): FindingData['numbers'] {
  return {
    measuredBitsPerSecond: 50e6,
    rttSeconds: 0.04,
    minRttSeconds: 0.039,
    queueingSeconds: 0.001,
    windowBytes: 65_536,
    windowBitsPerSecond: (65_536 * 8) / 0.04,
    cwndBytes: 52_400,
    cwndBitsPerSecond: 60e6,
    retransSegments: 0,
    lossRatio: null,
    rwndLimitedShare: null,
    sndbufLimitedShare: null,
    windowScale: 7,
    ...over,
  };
}

function mssFinding(requestedBytes: number | null, afterVerdict: string): FindingData {
  const small = mssFindingData({ sendMssBytes: 524, pmtuBytes: 1500, requestedBytes }, afterVerdict);
  return { verdict: 'mss-limited', case: 'mss-limited/small-segments', figures: small.figures, facts: small.facts, numbers: numbers() };
}

describe('detail text', () => {
  it('renders every case from its data, with the measured rate, and never an undefined or NaN', () => {
    for (const c of DIAGNOSIS_CASES) {
      const [verdict] = c.split('/') as [FindingData['verdict']];
      const s = detailText({ verdict, case: c, figures: { measured: fig(50e6, 'bit/s', 'measured'), rtt: fig(0.04, 's', 'tcp_info') }, numbers: numbers() });
      assert.ok(s.length > 20, c);
      assert.doesNotMatch(s, /undefined|NaN|\[object/, `${c}: ${s}`);
    }
  });

  it('says the sizes, the factor and how to check, with the congestion window in segments when that was the bound', () => {
    const s = detailText(mssFinding(536, 'congestion-limited'));
    assert.match(s, /at most 524 B \(536 B was requested with --mss\) where the path MTU of 1,500 B allows about 1,460 B/);
    assert.match(s, /2\.8× as many segments/);
    assert.match(s, /held 100 of them \(52,400 B/);
    assert.match(s, /Run again without --mss/);
    assert.match(detailText(mssFinding(null, 'application-limited')), /clamps the MSS/);
  });

  it('adds small segments to a path verdict as a possibility to check, after the path words', () => {
    const small = mssFindingData({ sendMssBytes: 524, pmtuBytes: 65_535, requestedBytes: 536 }, 'link-limited');
    const s = detailText({
      verdict: 'link-limited',
      case: 'link-limited/socket-full',
      figures: small.figures,
      facts: { ...small.facts, linkVia: 'socket-full' },
      notes: ['small-segments'],
      numbers: numbers(),
    });
    assert.match(
      s,
      /^At RTT 40\.0 ms .* the path \(link or receiving host\) is the limit\..* Segments were small: at most 524 B \(asked for with --mss\).*run again without --mss/,
    );
  });

  it('keeps the notes in the order the analysis found them: loss, then the stated rate it beat, then the emulated link', () => {
    const s = detailText({
      verdict: 'window-limited',
      case: 'window-limited/emulated-window',
      figures: { statedLinkRate: fig(10e6, 'bit/s', 'given') },
      notes: ['loss-present-bbr', 'stated-rate-contradicted', 'emulated-link'],
      numbers: numbers({ lossRatio: 0.012, measuredBitsPerSecond: 13e6 }),
    });
    const at = (re: RegExp): number => s.search(re);
    assert.ok(at(/the window is the limit/) < at(/Loss present \(1\.2 %/), s);
    assert.ok(at(/Loss present/) < at(/stated rate, 10 Mbit\/s, is below the 13 Mbit\/s measured/), s);
    assert.ok(at(/stated rate/) < at(/\(Emulated link: /), s);
  });
});

describe('detail text at each door', () => {
  const paced: FindingData = {
    verdict: 'application-limited',
    case: 'application-limited/paced',
    side: 'controller',
    figures: { pacedRate: fig(40e6, 'bit/s', 'given') },
    facts: { pacing: { perStreamBitsPerSecond: 20e6, mechanism: 'kernel SO_MAX_PACING_RATE' } },
    numbers: numbers({ measuredBitsPerSecond: 39.5e6 }),
  };

  it('names the terminal flag in the terminal and the Test step in the app, never a flag there', () => {
    assert.match(detailText(paced), /paced at 20 Mbit\/s per stream by --bitrate \(2 streams: at most 40\.00 Mbit\/s in all\)/);
    assert.match(detailText(paced, 'app'), /by the Bitrate per stream setting on the Test step/);
    for (const f of [paced, mssFinding(536, 'congestion-limited'), mssFinding(null, 'application-limited')]) assert.doesNotMatch(detailText(f, 'app'), /--/);
    assert.match(detailText(mssFinding(536, 'congestion-limited'), 'app'), /Run again with MSS empty on the Test step/);
  });

  it('the app renders a saved finding in its own words only where the data reproduces the saved sentence', () => {
    const saved = { ...paced, direction: 'controllerToResponder' as const, sentence: detailText(paced) };
    assert.match(savedDetail(saved, 'app'), /on the Test step/);
    assert.equal(savedDetail(saved, 'terminal'), saved.sentence);
    const older = { ...saved, facts: undefined, sentence: 'The sender was paced at 20 Mbit/s per stream by --bitrate (as saved).' };
    assert.equal(savedDetail(older, 'app'), older.sentence, 'a finding without every fact keeps its saved words');
  });
});
