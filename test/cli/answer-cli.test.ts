/**
 * The answer at a glance, as a newcomer runs it: `longhaul loopback -t 3` fits an 80×24 terminal with the verdict
 * in its answer line; the seed's satellite mistake (seed 000: an 8,760-byte window over a 1.3 s hop) fits one screen,
 * names the window, the value that fills the link and the command to try it, and no line contradicts another;
 * `-V` prints the detail, `-J` the JSON alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { DIAGNOSIS_CASES } from '../../electron/contract/finding.js';
import { cli } from '../helpers/cli.js';

/** The live interval rows of a run's output (`[  0.00-  1.00 s] …`). */
function intervalRows(out: string): number {
  return out.split('\n').filter((l) => /^\[ *\d+\.\d+- *\d+\.\d+ s\]/.test(l)).length;
}

/** A rate in words (`54 kbit/s`, `3.8 Mbit/s`) in bit/s. */
function bits(text: string): number {
  const m = /^([\d.,]+) (bit|kbit|Mbit|Gbit)\/s$/.exec(text.trim());
  assert.ok(m, text);
  return Number(m[1]?.replace(/,/g, '')) * { bit: 1, kbit: 1e3, Mbit: 1e6, Gbit: 1e9 }[m[2] as 'bit'];
}

describe('the answer at a glance', { timeout: 120_000 }, () => {
  it('loopback -t 3: at most 15 lines, the answer names the rate and the verdict; -V adds the detail', async () => {
    const r = await cli(['loopback', '-t', '3'], 40_000).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.ok(lines.length <= 15, `${lines.length} lines:\n${r.stdout}`);
    assert.match(r.stdout, /^Result: [\d.]+ [kMG]bit\/s · (CPU-limited|[a-z-]+-limited): \S/m);
    assert.match(r.stdout, /^Change: /m, 'the one change that would help');
    assert.doesNotMatch(r.stdout, /\bunknown\b/, 'nothing unknown in the default');
    assert.doesNotMatch(r.stdout, /Test (screen|step)/, 'no app words in the terminal');
    const v = await cli(['loopback', '-t', '1', '-V'], 40_000).done;
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(v.stdout, /^Round-trip time: /m);
    assert.match(v.stdout, /^Limiter: /m);
  });

  it('the satellite seed run fits one screen, names the window, the value that fills the link and the command, and contradicts nothing', async () => {
    const r = await cli(['loopback', '--link', 'satellite', '-w', '8760', '-l', '8K', '-t', '3'], 60_000).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    const rows = intervalRows(r.stdout);
    assert.ok(rows > 0 && lines.length <= rows + 12, `${lines.length} lines for ${rows} interval rows:\n${r.stdout}`);
    // The answer: window-limited by the 8,760-byte emulated window; the change names ≈ 650,000 B (4 Mbit/s × 1.3 s).
    const result =
      /^Result: ([\d.]+ [kM]?bit\/s) · window-limited: the emulated window, 8,760 B, allows about ([\d.]+ [kM]?bit\/s) over the 1\.30 s round trip\.$/m.exec(
        r.stdout,
      );
    assert.ok(result, r.stdout);
    const change = /^Change: the emulated window on this PC: 8,760 bytes → at least (6[45]\d,\d{3}) bytes per stream\.$/m.exec(r.stdout);
    assert.ok(change, r.stdout);
    assert.match(r.stdout, new RegExp(`^Try: +longhaul loopback .*--window ${(change[1] ?? '').replace(',', '')}$`, 'm'));
    // The measured rate may beat window ÷ RTT a little (N windows arrive in N − 1 round trips): "about", never "at most".
    assert.ok(bits(result[1] ?? '') < 1.5 * bits(result[2] ?? ''), 'the window is the limit: the rate is near what it allows');
    assert.doesNotMatch(r.stdout, /at most/);
    // The time asked and the time taken, and why they differ; no local-hop figure as the path's.
    assert.match(r.stdout, /^Longhaul -> .*, 3 s,/m);
    assert.match(r.stdout, /^Took [\d.]+ s of the 3 s asked: .*one round trip: 1\.30 s/m);
    assert.doesNotMatch(r.stdout, /peer window|queueing under load|RTT [\d.]+ ms/, 'no figure of the local hop to the emulator');
  });

  it('-J prints the result document alone on standard output, its diagnosis with a case', async () => {
    const r = await cli(['loopback', '-n', '2M', '-J'], 40_000).done;
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as LonghaulResult;
    assert.equal(doc.schema, 'longhaul.result/1');
    assert.ok(doc.diagnosis?.length, 'a diagnosis');
    for (const d of doc.diagnosis ?? []) assert.ok((DIAGNOSIS_CASES as readonly string[]).includes(d.case ?? ''), `case ${d.case}`);
  });
});
