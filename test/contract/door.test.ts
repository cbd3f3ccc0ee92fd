/**
 * Each door names its own controls: the terminal's what-if and BDP lines ask for the path's rate with
 * flags, the app's with its Test screen's controls, and neither borrows the other's words. Saved
 * advice is door-neutral (it is read by both).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { formatWhatIf } from '../../electron/contract/what-if-text.js';
import { neededBytes } from '../../electron/analysis/advice/os-rules.js';
import { makeResult, seedDiagnosis } from '../helpers/result-fixtures.js';

/** A WAN-like run without a path rate: 350 kbit/s over 200 ms with an 8,760-byte window (the model bounds it). */
function unrated(): LonghaulResult {
  const r = makeResult({ streams: [{ bytes: (350_000 / 8) * 3, seconds: 3, completions: 100 }] });
  r.diagnosis = [seedDiagnosis({ numbers: { measuredBitsPerSecond: 350_000, rttSeconds: 0.2, windowBytes: 8760 } })];
  return r;
}

describe('words per door', () => {
  it('the terminal asks for the rate with --path-rate or --capacity, and never names a screen', () => {
    const text = formatWhatIf(unrated(), 'terminal').join('\n');
    assert.match(text, /--path-rate, or measure it with --capacity/);
    assert.doesNotMatch(text, /Test screen|Measure the path/);
  });

  it("the app asks with its Test screen's controls, and never names a flag", () => {
    const text = formatWhatIf(unrated(), 'app').join('\n');
    assert.match(text, /"Path rate", or tick "Measure the path"/);
    assert.doesNotMatch(text, /--[a-z]/);
  });

  it("saved advice for an unknown rate says what is wanted per Mbit/s and names no door's control", () => {
    const text = neededBytes({ windowBytes: null, bytesPerMbit: 25_000, pathMssBytes: 1448, current: () => null });
    assert.equal(text, "unknown until the path's rate is known: 25,000 bytes per Mbit/s wanted at this RTT");
  });
});
