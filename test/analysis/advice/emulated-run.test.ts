/**
 * Advice on real loopback runs through the link emulator: a window-limited run
 * names the emulated window and the receiving PC's OS settings with the values
 * the responder read itself and sent in its results (on loopback the partner is
 * this PC, so they match this PC's own); a rate-limited run names the emulated
 * link only.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import { readLocalSettings } from '../../../electron/engine/session/local-settings.js';
import { childEnded } from '../../helpers/child-exit.js';

const BIN = fileURLToPath(new URL('../../../../bin/longhaul.js', import.meta.url));

/** `longhaul loopback …` with a hard time limit; the process group is killed on timeout. */
function loopback(args: string[], limitMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'loopback', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), limitMs);
    void childEnded(child).then(({ code }) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('advice on runs through the link emulator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'longhaul-advice-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("window-limited: the emulated window, then the partner's OS settings with the values it sent", { timeout: 40_000 }, async () => {
    const json = join(dir, 'window.json');
    // 16 KiB over 100 ms allows 1.3 Mbit/s of the link's 4; a stated 10 Gbit/s path needs 125,000,000 B.
    const r = await loopback(
      ['--delay', '50ms', '--rate', '4mbit', '-w', '16K', '--path-rate', '10gbit', '-n', '320K', '-i', '0.5', '--explain', '--json', json],
      30_000,
    );
    assert.equal(r.code, 0, r.out);
    const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
    const verdict = result.diagnosis?.[0]?.verdict;
    assert.equal(verdict, 'window-limited', result.diagnosis?.[0]?.sentence);
    const advice = result.advice ?? [];
    const emulator = advice.find((a) => a.topic === 'link-emulator');
    assert.ok(emulator, JSON.stringify(advice.map((a) => a.setting)));
    assert.match(emulator.setting, /emulated window/);
    assert.equal(emulator.currentValue, '16,384 bytes');
    assert.match(emulator.neededValue, /125,000,000 bytes per stream/);
    // The responder (the partner) read its own settings and sent them: on loopback they are this PC's.
    const mine = await readLocalSettings();
    assert.deepEqual(result.responder.settings, mine);
    const cap = advice.find((a) => a.side === 'responder' && /^net\.core\.rmem_max/.test(a.setting));
    if (mine['net.core.rmem_max'] !== undefined && Number(mine['net.core.rmem_max']) < 250_000_000) {
      assert.ok(cap, JSON.stringify(advice.map((a) => [a.side, a.setting])));
      assert.equal(cap.thisPc, false);
      assert.equal(cap.currentValue, mine['net.core.rmem_max']);
      assert.match(cap.why, /^On a real path/);
      assert.match(r.out, new RegExp(`now: +${mine['net.core.rmem_max']}\\n`));
    }
  });

  it('link-limited: the emulated rate is named, and no OS setting', { timeout: 40_000 }, async () => {
    const json = join(dir, 'rate.json');
    const r = await loopback(['--delay', '10ms', '--rate', '4mbit', '-n', '1M', '-i', '0.5', '--explain', '--json', json], 30_000);
    assert.equal(r.code, 0, r.out);
    const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
    assert.equal(result.diagnosis?.[0]?.verdict, 'link-limited', result.diagnosis?.[0]?.sentence);
    const advice = result.advice ?? [];
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['link-emulator'],
    );
    assert.match(advice[0]!.setting, /emulated link's rate/);
    assert.equal(advice[0]!.currentValue, '4.0 Mbit/s');
    assert.match(r.out, /not an OS setting/);
  });
});
