/**
 * `npm run bench`'s rows and report without running a tool: the configurations it reads, ranges
 * over rounds, ratios paired by round, the markdown table and the quiet-machine line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  configLabel,
  DEFAULT_CONFIGS,
  formatRange,
  markdownTable,
  parseConfigs,
  rangeOf,
  reportHeader,
  summarizeRow,
  type BenchMeta,
  type ToolRun,
} from './loopback-table.js';

function run(tool: string, round: number, gbit: number, gb: number, busy: number, notes: string[] = []): ToolRun {
  return { tool, round, bitsPerSecond: gbit * 1e9, bytes: gb * 1e9, busyCpuSeconds: busy, notes };
}

describe('bench: configurations', () => {
  it('reads streams, write size and -R, and names them as the tools would', () => {
    assert.deepEqual(parseConfigs('1x128K, 4x1M,2x1M-R'), [
      { streams: 1, lengthBytes: 131072, reverse: false, bitrate: null },
      { streams: 4, lengthBytes: 1048576, reverse: false, bitrate: null },
      { streams: 2, lengthBytes: 1048576, reverse: true, bitrate: null },
    ]);
    assert.deepEqual(parseConfigs('1x128K,4x1M,2x1M-R').map(configLabel), ['-P 1 -l 128K', '-P 4 -l 1M', '-P 2 -l 1M -R']);
  });

  it('reads a per-stream pace after @ and passes it as -b, the same text to both tools', () => {
    assert.deepEqual(parseConfigs('1x128K@5G,2x1M-R@2.5g'), [
      { streams: 1, lengthBytes: 131072, reverse: false, bitrate: '5G' },
      { streams: 2, lengthBytes: 1048576, reverse: true, bitrate: '2.5G' },
    ]);
    assert.deepEqual(parseConfigs('1x128K@5G,2x1M-R@2.5g').map(configLabel), ['-P 1 -l 128K -b 5G', '-P 2 -l 1M -R -b 2.5G']);
  });

  it('the default rows are -P 1, 2, 4 at both sizes and -R at 1 MiB with 1 and 2 streams', () => {
    const labels = parseConfigs(DEFAULT_CONFIGS).map(configLabel);
    for (const p of [1, 2, 4]) for (const l of ['128K', '1M']) assert.ok(labels.includes(`-P ${p} -l ${l}`), `-P ${p} -l ${l}`);
    assert.ok(labels.includes('-P 1 -l 1M -R') && labels.includes('-P 2 -l 1M -R'));
    assert.ok(
      labels.some((l) => l.includes(' -b ')),
      'a paced row: CPU at the same rate',
    );
  });

  it('refuses what it cannot read, naming it', () => {
    for (const bad of ['1x', 'x1M', '0x1M', '2x1M-Z', '2*1M', '200x1M', '1x1M@', '1x1M@0G', '1x1M@5T'])
      assert.throws(() => parseConfigs(bad), new RegExp(`"${bad.replace('*', '\\*')}"`));
  });
});

describe('bench: ranges', () => {
  it('min–max of the finite values, one figure when both ends print alike', () => {
    assert.deepEqual(rangeOf([3, 1, NaN, 2]), { min: 1, max: 3 });
    assert.equal(rangeOf([NaN]), null);
    assert.equal(formatRange({ min: 1.284, max: 1.551 }, 2), '1.28–1.55');
    assert.equal(formatRange({ min: 20.61, max: 20.64 }, 1), '20.6');
    assert.equal(formatRange(null, 2), 'n/a');
  });

  it('ratios pair the subject with each reference in the same round, never across rounds', () => {
    const runs = [
      run('a', 1, 10, 10, 5),
      run('b', 1, 20, 20, 5),
      run('lh', 1, 20, 20, 10),
      run('a', 2, 40, 40, 10),
      run('b', 2, 40, 40, 40),
      run('lh', 2, 80, 80, 40),
    ];
    const row = summarizeRow('-P 1 -l 1M', runs, 'lh', ['a', 'b']);
    assert.deepEqual(row.gbitPerSec.a, { min: 10, max: 40 });
    assert.deepEqual(row.rateRatio.a, { min: 2, max: 2 }, 'round 1: 20/10, round 2: 80/40 (across rounds: 20/40, 80/10)');
    assert.deepEqual(row.rateRatio.b, { min: 1, max: 2 });
    assert.deepEqual(row.cpuSecondsPerGB.lh, { min: 0.5, max: 0.5 });
    assert.deepEqual(row.cpuSecondsPerGB.b, { min: 0.25, max: 1 });
    assert.deepEqual(row.cpuRatio.b, { min: 0.5, max: 2 }, 'round 1: 0.5/0.25, round 2: 0.5/1');
    assert.deepEqual(row.notes, []);
  });

  it("a round one tool missed gives no ratio, and a run's notes carry their rounds", () => {
    const row = summarizeRow('-P 1 -l 1M', [run('a', 1, 10, 10, 5), run('lh', 2, 20, 20, 10, ['x']), run('lh', 3, 20, 20, 10, ['x'])], 'lh', ['a']);
    assert.equal(row.rateRatio.a, null);
    assert.deepEqual(row.notes, ['lh: x (round 2, 3)']);
  });
});

describe('bench: the report', () => {
  const tools = [
    { key: 'a', label: 'iperf3 3.12' },
    { key: 'b', label: 'iperf3 3.21' },
    { key: 'lh', label: 'Longhaul' },
  ];

  it('a markdown table: rates, ratios to each iperf3, CPU per GB and its ratios, notes', () => {
    const rows = [
      summarizeRow('-P 1 -l 128K', [run('a', 1, 20, 20, 10), run('b', 1, 25, 25, 10), run('lh', 1, 30, 30, 12, ['1 of 4 ends | odd'])], 'lh', ['a', 'b']),
    ];
    const lines = markdownTable(rows, tools, 'lh').split('\n');
    assert.equal(
      lines[0],
      '| config | iperf3 3.12 Gbit/s | iperf3 3.21 Gbit/s | Longhaul Gbit/s | Longhaul ÷ iperf3 3.12 | Longhaul ÷ iperf3 3.21 | ' +
        'iperf3 3.12 CPU s/GB | iperf3 3.21 CPU s/GB | Longhaul CPU s/GB | CPU ÷ iperf3 3.12 | CPU ÷ iperf3 3.21 | notes |',
    );
    assert.equal(lines[1], `|${' --- |'.repeat(12)}`);
    assert.equal(lines[2], '| -P 1 -l 128K | 20.0 | 25.0 | 30.0 | 1.50 | 1.20 | 0.50 | 0.40 | 0.40 | 0.80 | 1.00 | lh: 1 of 4 ends \\| odd (round 1) |');
    assert.equal(lines.length, 3);
  });

  const meta: BenchMeta = {
    date: '2026-12-07T15:00:00.000Z',
    cpus: 2,
    cpuModel: 'AMD EPYC',
    kernel: 'Linux 6.18.44',
    loadAverage: 0.12,
    seconds: 5,
    rounds: 3,
    longhaul: 'abc1234',
    tools: [{ label: 'iperf3 3.12', path: '/usr/bin/iperf3', version: '3.12' }],
  };

  it('the header gives the date, the machine and the tools, and says the machine was quiet', () => {
    const text = reportHeader(meta).join('\n');
    assert.match(text, /^2026-12-07, 2 CPUs \(AMD EPYC\), Linux 6\.18\.44; loopback, 3 round\(s\) of 5 s/);
    assert.match(text, /iperf3 3\.12 \(\/usr\/bin\/iperf3\); Longhaul abc1234/);
    assert.match(text, /^Quiet: load average 0\.12/m);
    assert.doesNotMatch(text, /Not quiet/);
  });

  it('above a load of 0.5 it warns that the figures are noise', () => {
    const text = reportHeader({ ...meta, loadAverage: 0.51 }).join('\n');
    assert.match(text, /\*\*Not quiet\*\*: load average 0\.51 .*noise/);
    assert.doesNotMatch(text, /^Quiet/m);
  });
});
