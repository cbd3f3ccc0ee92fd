import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { childEnded } from '../helpers/child-exit.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

/** `longhaul loopback …` with a hard time limit; the child and its own children are killed on timeout. */
function loopback(args: string[], limitMs: number, onSpawn?: (pid: number) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // --explain: these tests read the emulator's own account (its stages, losses, bypass toggles, lag), which is detail.
    const child = spawn(process.execPath, [BIN, 'loopback', '--explain', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    onSpawn?.(child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), limitMs);
    void childEnded(child).then(({ code }) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a real longhaul run through the proxy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'longhaul-proxy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('scaled-down satellite (4 Mbit/s, 200 ms RTT, 64 KiB window): throughput near min(rate, window/RTT)', { timeout: 40_000 }, async () => {
    const json = join(dir, 'sat.json');
    const r = await loopback(['--delay', '100ms', '--rate', '4mbit', '-w', '64K', '-n', '640K', '-i', '0.5', '--json', json], 30_000);
    try {
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
      const model = Math.min(4e6, (65_536 * 8) / 0.2);
      assert.equal(result.link?.modelCeilingBitsPerSec, model);
      assert.deepEqual(result.link?.settings, {
        delayMs: 100,
        jitterMs: 0,
        rateBitsPerSec: 4e6,
        windowBytes: 65_536,
        slowstart: false,
        lossRatio: 0,
        mssBytes: 1448,
      });
      assert.equal(result.total.bytes, 640 * 1024);
      const rate = result.total.bitsPerSecond!;
      assert.ok(rate > model * 0.85 && rate < model * 1.15, `${(rate / 1e6).toFixed(3)} Mbit/s, model ${(model / 1e6).toFixed(3)} Mbit/s`);
      assert.match(r.stdout, /model ceiling per stream, min\(rate × payload share, window \/ RTT\): 2\.62 Mbit\/s/);
    } finally {
      rmSync(json, { force: true });
    }
  });

  it('a timed run stops near its deadline: the sender keeps no seconds of data queued behind it', { timeout: 40_000 }, async () => {
    // TCP_NOTSENT_LOWAT (electron/engine/data-plane/send-backlog.ts). Without it, Linux let the sender queue up
    // to 4 MB on the local hop: a 5 s run over the satellite preset delivered for 13.8 s (9.0 s with the
    // bound measured on accepted bytes, 6.5 s measured on acknowledged bytes).
    const json = join(dir, 'deadline.json');
    const r = await loopback(['--delay', '100ms', '--rate', '4mbit', '-t', '2', '-i', '0.5', '--json', json], 30_000);
    try {
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
      // 2 s of sending, a one-way delay of 100 ms, 250 ms of backlog and the shaper's queue.
      assert.ok(result.total.seconds! < 3.2, `first to last byte ${result.total.seconds} s for a 2 s run`);
      assert.ok(result.total.bytes > 0.5 * (3.83e6 / 8) * 2, `${result.total.bytes} bytes`);
    } finally {
      rmSync(json, { force: true });
    }
  });

  it('periodic 1 % loss: the result says what the loss model did (every 100th segment of each connection)', { timeout: 40_000 }, async () => {
    const json = join(dir, 'loss.json');
    const r = await loopback(
      ['--delay', '10ms', '--rate', '20mbit', '--loss', '1%', '--loss-pattern', 'periodic', '-n', '2M', '-i', '0.5', '--json', json],
      30_000,
    );
    try {
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
      assert.equal(result.link?.settings?.lossPattern, 'periodic');
      const up = result.link?.modelledLoss?.up;
      assert.ok(up, `modelledLoss: ${JSON.stringify(result.link?.modelledLoss)}`);
      // 2 MiB of data is 1,449 segments on the data connection (14 lost); the control connection adds a few segments, none lost.
      assert.ok(up.segments >= 1449 && up.segments < 1600, `${up.segments} segments`);
      assert.equal(up.losses, Math.floor(1449 / 100));
      assert.ok(up.halvings >= 1 && up.halvings <= up.losses, `${up.halvings} halvings`);
      assert.ok(result.link?.modelledLoss?.down, 'the way back has its loss stage too');
      assert.equal(result.total.bytes, 2 * 1024 * 1024, 'modelled losses cost time, never bytes');
      assert.match(r.stdout, /modelled loss up \(client -> target\): 14 of 1,\d{3} segments lost, \d+ halvings?/);
    } finally {
      rmSync(json, { force: true });
    }
  });

  it('--link satellite with --bypass-at: every toggle is recorded with its time, and bypass really switches the link off', { timeout: 40_000 }, async () => {
    const json = join(dir, 'bypass.json');
    // Emulated 0-0.5 s, bypass 0.5-1 s, emulated 1-2 s, bypass from 2 s (so the sender's local buffers drain fast at the end).
    const r = await loopback(['--link', 'satellite', '--delay', '100ms', '-t', '2.5', '-i', '0.25', '--bypass-at', '0.5s,1s,2s', '--json', json], 30_000);
    try {
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
      assert.equal(result.link?.preset, 'satellite');
      assert.equal(result.link?.settings?.rateBitsPerSec, 4e6);
      assert.equal(result.link?.settings?.delayMs, 100, 'the --delay flag overrides the preset');
      const toggles = result.link!.bypassToggles;
      assert.deepEqual(
        toggles.map((t) => t.bypass),
        [true, false, true],
      );
      toggles.forEach((t, i) => assert.ok(t.t >= [0.5, 1, 2][i]! - 0.01 && t.t < [0.5, 1, 2][i]! + 0.3, `toggle ${i} at ${t.t} s`));
      const received = (index: number): number => result.intervals.find((x) => x.index === index)?.receivedBytes ?? NaN;
      // 4 Mbit/s for 0.25 s is 125,000 bytes; bypassed, loopback moves megabytes.
      for (const i of [6, 7]) assert.ok(received(i) < 250_000, `emulated interval ${i}: ${received(i)} bytes`);
      assert.ok(result.total.bytes > 5_000_000, `bypass moved ${result.total.bytes} bytes in all`);
      assert.match(r.stdout, /bypass on {2}at 0\.\d+ s/);
    } finally {
      rmSync(json, { force: true });
    }
  });

  it(
    "the LAN preset (1 Gbit/s, 0.2 ms RTT) at line rate with the addon loaded: the relay's socket buffers do not throttle it",
    { timeout: 40_000 },
    async (t) => {
      // The relay's receive buffer once was a fixed 8 KiB (130 µs at 1 Gbit/s): runs read 600-800 of
      // the model's 956 Mbit/s while the same run without the addon held it every second.
      const json = join(dir, 'lan.json');
      const r = await loopback(['--link', 'lan', '-t', '6', '--json', json], 30_000);
      try {
        assert.equal(r.code, 0, r.stderr + r.stdout);
        const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
        const model = result.link!.modelCeilingBitsPerSec!;
        assert.ok(model > 9.5e8 && model < 9.6e8, `model ${model}`);
        // Steady state: the intervals after the first two seconds (slow start and the proxy's ramp).
        const rates = result.intervals
          .filter((i) => i.t > 2 && i.seconds > 0.5)
          .map((i) => ((i.receivedBytes ?? 0) * 8) / i.seconds)
          .sort((a, b) => a - b);
        const median = rates[Math.floor(rates.length / 2)]!;
        t.diagnostic(`per second: ${rates.map((x) => (x / 1e6).toFixed(0)).join(', ')} Mbit/s; median / model ${(median / model).toFixed(3)}`);
        assert.ok(rates.length >= 3, `${rates.length} steady intervals`);
        assert.ok(median >= 0.9 * model && median <= 1.03 * model, `median ${(median / 1e6).toFixed(0)} Mbit/s vs model ${(model / 1e6).toFixed(0)} Mbit/s`);
        // The emulator kept up, watched itself, and says nothing against itself.
        const watch = result.link!.emulatorWatch;
        assert.ok(watch?.up, `emulatorWatch: ${JSON.stringify(watch)}`);
        assert.ok(watch.up.releasedBytes >= result.total.bytes, 'the watch saw every byte go up');
        assert.ok(!result.diagnosis?.some((d) => d.verdict === 'emulator-limited'), JSON.stringify(result.diagnosis));
        assert.match(r.stdout, /^emulator: (native relay thread|JavaScript relay)/m);
      } finally {
        rmSync(json, { force: true });
      }
    },
  );

  it(
    'an emulator starved of CPU (its process stopped 150 ms of every 300 ms) says it, not the link, was the limit',
    { timeout: 40_000, skip: process.platform !== 'linux' && 'finds the proxy process through /proc' },
    async () => {
      const json = join(dir, 'starved.json');
      let proxyPid: number | null = null;
      let stopped = false;
      let cycling: NodeJS.Timeout | null = null;
      const cycle = (): void => {
        if (proxyPid === null) return;
        try {
          process.kill(proxyPid, stopped ? 'SIGCONT' : 'SIGSTOP');
          stopped = !stopped;
        } catch {
          proxyPid = null; // gone: the run is over
        }
      };
      const r = await loopback(['--link', 'lan', '-t', '4', '--json', json], 30_000, (pid) => {
        // The loopback command forks the proxy (`longhaul proxy …`): find it among its children, then starve it.
        const started = Date.now();
        const find = setInterval(() => {
          proxyPid = childrenOf(pid).find((c) => readProcCmdline(c).includes('proxy')) ?? null;
          if (proxyPid !== null || Date.now() - started > 10_000) {
            clearInterval(find);
            if (proxyPid !== null) cycling = setInterval(cycle, 150);
          }
        }, 50);
      });
      try {
        if (cycling) clearInterval(cycling);
        assert.equal(r.code, 0, r.stderr + r.stdout);
        const result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
        const d = result.diagnosis?.find((x) => x.direction === 'controllerToResponder');
        assert.equal(d?.verdict, 'emulator-limited', `${d?.verdict}: ${d?.sentence}; ${JSON.stringify(result.link?.emulatorWatch)}`);
        assert.match(
          d!.sentence,
          /The link emulator on this PC, not the emulated link, was the limit: its process did not run for \d+ % of the time it carried data/,
        );
        assert.match(r.stdout, /Limiter: Emulator-limited\./);
      } finally {
        if (cycling) clearInterval(cycling);
        if (proxyPid !== null && stopped) {
          try {
            process.kill(proxyPid, 'SIGCONT');
          } catch {
            // already gone
          }
        }
        rmSync(json, { force: true });
      }
    },
  );
});

/** Child pids of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

function readProcCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}
