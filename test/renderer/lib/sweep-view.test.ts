/** What the Sweep screen says: the plan line (the contract's duration rule), values in words, one row per cell. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cellLabel,
  formatDimensionValue,
  formatDuration,
  planHeading,
  planText,
  sweepHeading,
  sweepRows,
  verdictText,
} from '../../../electron/contract/sweep-view.js';
import { headlineOf, makePlan, makeView } from '../../helpers/sweep-fixtures.js';

describe('sweep view', () => {
  it('states cells × repeats × seconds (+ pauses) = total', () => {
    assert.equal(planText(makePlan()), '4 cells × 2 repeats × 1 s + 7 pauses of 0.5 s = 12 s (8 runs)');
    assert.equal(planText(makePlan({ repeat: 3, pauseSeconds: 0, base: { ...makePlan().base, seconds: 30 } })), '4 cells × 3 repeats × 30 s = 6 min (12 runs)');
    assert.equal(planText(makePlan({ dimensions: [], repeat: 1 })), '1 cell × 1 repeat × 1 s = 1 s (1 runs)');
    assert.equal(planText(makePlan(), 3), '4 cells × 2 repeats × 1 s + 2 pauses of 0.5 s = 4 s (3 runs still to run)');
    assert.match(planText(makePlan({ base: { ...makePlan().base, seconds: null, bytes: 1e6 } })), /8 runs, each until its byte count has moved/);
  });

  it('formats durations a person reads', () => {
    assert.equal(formatDuration(0), '0 s');
    assert.equal(formatDuration(59.6), '1 min');
    assert.equal(formatDuration(3725), '1 h 2 min 5 s');
  });

  it('says every value with its unit, and what null means for each setting', () => {
    assert.equal(formatDimensionValue('windowBytes', null), 'OS default');
    assert.equal(formatDimensionValue('windowBytes', 65_536), '64.0 KiB');
    assert.equal(formatDimensionValue('mssBytes', 536), '536 B');
    assert.equal(formatDimensionValue('streams', 4), '4 streams');
    assert.equal(formatDimensionValue('link', null), 'no emulator');
    assert.equal(formatDimensionValue('path', 'relay'), 'relay (local proxy)');
    assert.equal(formatDimensionValue('direction', 'bidir'), 'both at once');
  });

  it("fills a row per cell from the runner's summaries: median, min–max, per-stream sum, runs, verdicts", () => {
    const plan = makePlan();
    const view = makeView(plan, [headlineOf(plan, 1, 0, 100e6), headlineOf(plan, 1, 1, 300e6), headlineOf(plan, 2, 0, null, 'failed')]);
    const rows = sweepRows(plan, view.cells);
    assert.equal(rows.length, 4);
    assert.deepEqual(rows[1], {
      cell: 1,
      settings: ['OS default', '4 streams'],
      median: '200.00 Mbit/s',
      range: '100.00 Mbit/s – 300.00 Mbit/s',
      streamSumMedian: '202.00 Mbit/s',
      runs: 2,
      planned: 2,
      verdicts: 'window ×2',
      medianBitsPerSecond: 200e6,
    });
    assert.equal(rows[2]!.median, '–', 'a failed run is not a measurement');
    assert.equal(rows[2]!.runs, 0);
    assert.equal(cellLabel(plan, view.cells[3]!.values), 'window 64.0 KiB · 4 streams');
  });

  it('heads a sweep with where it ran and what it sweeps, in words', () => {
    assert.equal(planHeading(makePlan()), 'This PC (loopback): window × streams');
    assert.equal(sweepHeading('peer', '192.0.2.7:5211', ['bufferBytes']), '192.0.2.7:5211: buffer');
    assert.equal(planHeading(makePlan({ dimensions: [{ name: 'link', values: ['satellite'] }] })), 'This PC (loopback): one cell');
  });

  it('orders verdicts by count', () => {
    assert.equal(verdictText({ 'congestion-limited': 1, 'window-limited': 3 }), 'window ×3, congestion ×1');
    assert.equal(verdictText({}), '');
  });
});
