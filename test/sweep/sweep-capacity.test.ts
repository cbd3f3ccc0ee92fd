/**
 * A sweep that measures its paths (plan.capacity, `sweep --capacity`): the runner asks the first run over
 * each path (link preset, path, measured direction) to measure it, judges every later run over that path
 * against the figure, keeps the figures in the file (a resume measures nothing again) and asks again after
 * a tuned run that gave no figure. The target is a stand-in that records what it was asked (no sockets:
 * the measurement itself is tested on the kernel WAN harness, test/wan/wan-sweep-capacity.test.ts).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { CapacityInfo } from '../../electron/contract/capacity-info.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { SweepCellSettings } from '../../electron/contract/sweep.js';
import type { CapacityAsk, RunTarget } from '../../electron/sweep/run-target.js';
import { newSweepFile, readSweepFile } from '../../electron/sweep/sweep-file.js';
import { SweepRunner } from '../../electron/sweep/sweep-runner.js';
import { capacityLines } from '../../electron/cli/sweep-output.js';
import { formatSweepHtml } from '../../electron/report/sweep-html.js';
import { makeResult } from '../helpers/result-fixtures.js';
import { tmpDir } from '../helpers/tmp.js';
import { plan } from './fixtures.js';

function info(direction: CapacityInfo['direction'], bps: number | null): CapacityInfo {
  return {
    direction,
    payloadBitsPerSecond: bps,
    wireBitsPerSecond: bps === null ? null : bps * 1.045,
    wireConvention: 'IP packets',
    method: 'tuned-streams',
    streams: 4,
    windowBytes: 1 << 20,
    plannedRttMs: 40,
    slowStartEndSeconds: 0.2,
    measuredFromSeconds: 0.2,
    measuredToSeconds: 2.2,
    phaseSeconds: 3,
    sliceRange: null,
    lowerBound: null,
    ...(bps === null ? { failure: 'stopped by the user' } : {}),
  };
}

/** Records every ask; a measuring run gets `figures`' next figure per direction (null: the tuned run gave none). */
class AskingTarget implements RunTarget {
  readonly label = 'stand-in';
  readonly asks: { settings: SweepCellSettings; ask: CapacityAsk }[] = [];
  constructor(private readonly figures: (number | null)[]) {}
  async open(): Promise<void> {}
  async close(): Promise<void> {}
  async run(settings: SweepCellSettings, _signal: AbortSignal, ask: CapacityAsk): Promise<LonghaulResult> {
    this.asks.push({ settings, ask });
    const r = makeResult({ streams: [{ bytes: 1e6, seconds: 1, completions: 10 }] });
    const direction = settings.params.direction === 'reverse' ? 'responderToController' : 'controllerToResponder';
    if (ask && 'measure' in ask) r.capacity = info(direction, this.figures.shift() ?? null);
    if (ask && 'known' in ask) r.capacity = ask.known;
    return r;
  }
}

const measures = (t: AskingTarget): number => t.asks.filter((a) => a.ask && 'measure' in a.ask).length;

describe('sweep --capacity', { timeout: 30_000 }, () => {
  it('windows × directions, 2 repeats: each direction measured once, by its first run; the other seven runs judged against it', async (t) => {
    const target = new AskingTarget([20e6, 9e6]);
    const p = plan({
      dimensions: [
        { name: 'windowBytes', values: [65536, null] },
        { name: 'direction', values: ['forward', 'reverse'] },
      ],
      pauseSeconds: 0,
      capacity: true,
    });
    const jsonPath = path.join(tmpDir(t), 's.json');
    const final = await new SweepRunner({ file: newSweepFile(p), jsonPath, target }).start();
    assert.equal(target.asks.length, 8);
    assert.equal(measures(target), 2, 'one measurement per measured direction');
    for (const dir of ['forward', 'reverse'] as const) {
      const mine = target.asks.filter((a) => a.settings.params.direction === dir);
      assert.ok(mine[0]!.ask && 'measure' in mine[0]!.ask, `the first ${dir} run measures`);
      assert.ok(
        mine.slice(1).every((a) => a.ask && 'known' in a.ask),
        `the later ${dir} runs are judged against it`,
      );
    }
    assert.deepEqual(final.capacity?.map((c) => [c.direction, c.info.payloadBitsPerSecond]).sort(), [
      ['controllerToResponder', 20e6],
      ['responderToController', 9e6],
    ]);
    const back = await readSweepFile(jsonPath);
    assert.equal(back.capacity?.length, 2, 'kept in the file');
    assert.ok(
      back.runs.every((r) => r.result?.capacity?.payloadBitsPerSecond),
      'every run carries its path figure',
    );
    assert.match(capacityLines(back), /Path \(no emulator, controller → responder\), measured after run [12]: 20\.00 Mbit\/s of payload/);
    assert.match(formatSweepHtml(back), /<th>path measured<\/th><td>Path \(no emulator, responder → controller\), measured after run \d: 9\.00 Mbit/);
  });

  it('a tuned run that gave no figure is not kept: the next run over that path measures again', async (t) => {
    const target = new AskingTarget([null, 18e6]);
    const p = plan({ dimensions: [{ name: 'windowBytes', values: [65536, null] }], repeat: 2, pauseSeconds: 0, capacity: true });
    const final = await new SweepRunner({ file: newSweepFile(p), jsonPath: path.join(tmpDir(t), 's.json'), target }).start();
    assert.equal(measures(target), 2);
    assert.equal(final.capacity?.length, 1);
    assert.equal(final.capacity?.[0]?.info.payloadBitsPerSecond, 18e6);
    assert.equal(final.capacity?.[0]?.sequence, 1, 'measured by the second run');
  });

  it('a resume measures nothing again; without plan.capacity nothing is asked at all', async (t) => {
    const dir = tmpDir(t);
    const p = plan({ dimensions: [{ name: 'windowBytes', values: [65536, null] }], repeat: 2, pauseSeconds: 0, capacity: true });
    const first = new SweepRunner({ file: newSweepFile(p), jsonPath: path.join(dir, 's.json'), target: new AskingTarget([15e6]) });
    first.on('progress', (e) => {
      if (e.kind === 'run-done' && e.position === 2) first.stop();
    });
    const stopped = await first.start();
    assert.equal(stopped.runs.length, 2);
    const again = new AskingTarget([]);
    await new SweepRunner({ file: await readSweepFile(path.join(dir, 's.json')), jsonPath: path.join(dir, 's.json'), target: again }).start();
    assert.equal(again.asks.length, 2);
    assert.equal(measures(again), 0, 'the figure in the file stands');
    const plain = new AskingTarget([]);
    await new SweepRunner({ file: newSweepFile({ ...p, capacity: undefined }), jsonPath: path.join(dir, 'p.json'), target: plain }).start();
    assert.ok(plain.asks.every((a) => a.ask === null));
  });
});
