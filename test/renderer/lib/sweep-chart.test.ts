/** The Sweep chart's data: a heat map for exactly two swept settings, grouped bars with min–max otherwise. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heatColor, heatTextLight, sweepChart } from '../../../electron/contract/sweep-chart.js';
import { headlineOf, makePlan, makeView } from '../../helpers/sweep-fixtures.js';

describe('sweep chart', () => {
  it('puts two swept settings on a heat map, the last (fastest-changing) along x, holes where nothing is measured', () => {
    const plan = makePlan();
    const view = makeView(plan, [headlineOf(plan, 0, 0, 50e6), headlineOf(plan, 3, 0, 400e6), headlineOf(plan, 3, 1, 200e6)]);
    const chart = sweepChart(plan, view.cells);
    assert.equal(chart.kind, 'heatmap');
    if (chart.kind !== 'heatmap') return;
    assert.equal(chart.xTitle, 'streams');
    assert.equal(chart.yTitle, 'window');
    assert.deepEqual(chart.xLabels, ['1 stream', '4 streams']);
    assert.deepEqual(chart.yLabels, ['OS default', '64.0 KiB']);
    assert.deepEqual(
      chart.cells.map((c) => [c.x, c.y, c.median]),
      [
        [0, 0, 50e6],
        [1, 0, null],
        [0, 1, null],
        [1, 1, 300e6],
      ],
    );
    assert.deepEqual([chart.low, chart.high], [50e6, 300e6]);
    assert.deepEqual([chart.cells[3]!.min, chart.cells[3]!.max, chart.cells[3]!.runs], [200e6, 400e6, 2]);
  });

  it('draws one swept setting as bars with min–max, a one-value link as no axis', () => {
    const plan = makePlan({
      dimensions: [
        { name: 'bufferBytes', values: [16_384, 131_072, 1_048_576] },
        { name: 'link', values: ['satellite'] },
      ],
    });
    const view = makeView(plan, [headlineOf(plan, 1, 0, 10e6), headlineOf(plan, 1, 1, 30e6)]);
    const chart = sweepChart(plan, view.cells);
    assert.equal(chart.kind, 'bars');
    if (chart.kind !== 'bars') return;
    assert.equal(chart.xTitle, 'buffer');
    assert.deepEqual(chart.xLabels, ['16.0 KiB', '128.0 KiB', '1.00 MiB']);
    assert.deepEqual(chart.series, [{ label: 'median', median: [null, 20e6, null], min: [null, 10e6, null], max: [null, 30e6, null] }]);
  });

  it('groups three swept settings: the longest along x, one series per combination of the others', () => {
    const plan = makePlan({
      dimensions: [
        { name: 'direction', values: ['forward', 'reverse'] },
        { name: 'streams', values: [1, 2, 4] },
        { name: 'path', values: ['direct', 'relay'] },
      ],
    });
    const chart = sweepChart(plan, makeView(plan, [headlineOf(plan, 0, 0, 1e6)]).cells);
    assert.equal(chart.kind, 'bars');
    if (chart.kind !== 'bars') return;
    assert.equal(chart.xTitle, 'streams');
    assert.deepEqual(
      chart.series.map((s) => s.label),
      [
        'direction this PC sends · path direct',
        'direction this PC sends · path relay (local proxy)',
        'direction the partner sends · path direct',
        'direction the partner sends · path relay (local proxy)',
      ],
    );
    assert.deepEqual(chart.series[0]!.median, [1e6, null, null]);
  });

  it('shades from pale (slowest) to deep (fastest), white text only on the deep end, nothing for holes', () => {
    assert.equal(heatColor(null, 1, 2), null);
    assert.equal(heatColor(1, 1, 3), 'hsl(215, 85%, 88%)');
    assert.equal(heatColor(3, 1, 3), 'hsl(215, 85%, 32%)');
    assert.equal(heatColor(5, 5, 5), 'hsl(215, 85%, 32%)', 'one measured cell is the darkest');
    assert.equal(heatTextLight(1, 1, 3), false);
    assert.equal(heatTextLight(3, 1, 3), true);
  });
});
