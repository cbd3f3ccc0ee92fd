/**
 * Longhaul's core job on Windows, under Wine with the official node.exe and the
 * mingw-w64 build of the addon (docs/windows-lane.md): the window set before the
 * handshake on every stream end of both processes (addon-owned connections:
 * docs/data-path.md), the kernel enforcing it, reports to C:\ paths with spaces,
 * a Ctrl-C that keeps the partial result, and the result naming what Wine does
 * not give. Wine maps Winsock onto Linux sockets, so the window here is enforced
 * by this machine's kernel; what only real Windows can show (SIO_TCP_INFO) is
 * the release workflow's smoke step.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { nodeExePath, PROJECT_DIR, wineEnv } from '../../scripts/windows-lane/lane.js';
import { laneReady, resultsDirWithSpaces, runWindowsNode, stopWine, toLinuxPath, useWindowsLane, windowsUserDir } from './wine-node.js';

useWindowsLane();

function readResult(file: string): LonghaulResult {
  return JSON.parse(readFileSync(file, 'utf8')) as LonghaulResult;
}

/** Every stream end of a result, with a name for messages. */
function ends(r: LonghaulResult) {
  return r.streams.flatMap((s) => [
    { name: `stream ${s.id} send`, e: s.send! },
    { name: `stream ${s.id} receive`, e: s.receive! },
  ]);
}

describe('Longhaul under Wine (Windows build)', { timeout: 600_000 }, () => {
  it('-w 8K: applied before the handshake on all four stream ends, and the kernel holds the run to a fraction of the unwindowed one', async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const run = (name: string, extra: string[]) =>
      runWindowsNode(
        [
          'bin/longhaul.js',
          'loopback',
          '-P',
          '2',
          '-t',
          '4',
          ...extra,
          '--json',
          `${dir.win}\\${name}.json`,
          '--csv',
          `${dir.win}\\${name}.csv`,
          '--log',
          `${dir.win}\\${name} log.txt`,
        ],
        { timeoutMs: 120_000 },
      );
    const free = await run('no window', []);
    assert.equal(free.code, 0, `no window: exit ${free.code}\n${free.stdout}\n${free.stderr}`);
    // --mss rides along: Wine (like Windows) refuses TCP_MAXSEG, which must be reported, not ignored, and must not stop the run.
    const small = await run('window 8K', ['-w', '8K', '--mss', '536']);
    assert.equal(small.code, 0, `-w 8K: exit ${small.code}\n${small.stdout}\n${small.stderr}`);

    const a = readResult(path.join(dir.linux, 'no window.json'));
    const w = readResult(path.join(dir.linux, 'window 8K.json'));
    assert.equal(w.partial, false, w.partialReason ?? '');
    assert.equal(w.window.requestedBytes, 8192);
    assert.equal(w.window.applied, true, w.window.note);
    const all = ends(w);
    assert.equal(all.length, 4);
    for (const { name, e } of all) {
      assert.equal(e.io, 'native', `${name}: bytes moved by the addon's Winsock loop`);
      assert.equal(e.socket?.requestedBytes, 8192, name);
      assert.equal(e.socket?.appliedBeforeHandshake, true, `${name}: ${JSON.stringify(e.socket?.unavailable)}`);
      // Windows does not double what is set (Wine reports what the program set).
      assert.equal(e.socket?.rcvBufBytes, 8192, `${name}: effective SO_RCVBUF`);
      assert.equal(e.socket?.sndBufBytes, 8192, `${name}: effective SO_SNDBUF`);
    }
    for (const { name, e } of ends(a)) assert.equal(e.io, 'native', `no window, ${name}`);
    assert.ok(
      w.total.bytes * 3 <= a.total.bytes,
      `-w 8K moved ${w.total.bytes} B, the same run without -w ${a.total.bytes} B: the window must cut it to a third or less`,
    );
    // What Wine does not give is named, with Wine as the reason, on both sides; nothing is made up.
    for (const side of ['controller', 'responder'] as const) {
      const tcp = (w.unavailable ?? []).find((u) => u.side === side && u.field === 'tcp');
      assert.ok(tcp && /SIO_TCP_INFO/.test(tcp.reason) && /Wine/.test(tcp.reason), `${side}: ${JSON.stringify(w.unavailable)}`);
      const cc = (w.unavailable ?? []).find((u) => u.side === side && u.field === 'congestionControl');
      assert.ok(cc && /per socket/.test(cc.reason), `${side}: ${JSON.stringify(w.unavailable)}`);
    }
    for (const { name, e } of all) {
      assert.equal(e.socket?.congestionControl, null, `${name}: Windows has no per-socket congestion control to read`);
      // No TCP_INFO reading is made up where Wine cannot read one: none, or only nulls.
      for (const x of e.tcp ?? []) assert.deepEqual([x.rttUs, x.busyUs, x.senderLimitedUs ?? null, x.totalRetransSegments], [null, null, null, null], name);
    }
    assert.match(
      small.stdout,
      /^Result: .* · limit unknown: the round-trip time is unknown, so the limit cannot be told/m,
      'without an RTT the answer says it cannot tell',
    );
    assert.equal(w.mss?.requestedBytes, 536);
    if (!w.mss?.applied) {
      assert.deepEqual([...w.mss!.refusedBy].sort(), ['controller', 'responder'], w.mss?.note);
      for (const side of ['controller', 'responder'] as const) {
        const mss = (w.unavailable ?? []).find((u) => u.side === side && u.field === 'mss');
        assert.ok(mss && /TCP_MAXSEG/.test(mss.reason) && /Wine/.test(mss.reason), `${side}: ${JSON.stringify(w.unavailable)}`);
      }
      assert.match(small.stdout, /MSS: 536 bytes asked, refused on 4 of 4 stream ends/);
    }
    // The reports went to the C:\ folder with spaces, whole.
    const csv = readFileSync(path.join(dir.linux, 'window 8K.csv'));
    assert.ok(csv.length > 100, 'CSV written');
    assert.ok(readFileSync(path.join(dir.linux, 'window 8K log.txt'), 'utf8').includes('Total'), 'console log written');
    t.diagnostic(`bytes in 4 s: no window ${a.total.bytes}, -w 8K ${w.total.bytes} (ratio ${(w.total.bytes / a.total.bytes).toFixed(3)})`);
  });

  it('Ctrl-C during a run stops it and keeps the partial result (exit 1)', async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const out = path.join(os.tmpdir(), `longhaul-wine-ctrlc-${process.pid}.out`);
    const fdOut = openSync(out, 'w');
    const fdErr = openSync(`${out}.err`, 'w');
    const child = spawn('wine', [nodeExePath(), 'bin/longhaul.js', 'loopback', '-t', '60', '--json', `${dir.win}\\stopped run.json`], {
      cwd: PROJECT_DIR,
      env: { ...process.env, ...wineEnv(), PREBUILDS_ONLY: '1' },
      stdio: ['ignore', fdOut, fdErr],
      detached: true,
    });
    closeSync(fdOut);
    closeSync(fdErr);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      // Wait until the run is moving bytes (the first interval line), at most 40 s.
      const until = Date.now() + 40_000;
      while (!/\[\s*0\.00-/.test(readFileSync(out, 'utf8')) && Date.now() < until) await new Promise((r) => setTimeout(r, 250));
      assert.match(readFileSync(out, 'utf8'), /\[\s*0\.00-/, 'the run started');
      // The Linux process of `wine node.exe` is node.exe itself: Wine turns SIGINT into the console's Ctrl-C.
      process.kill(child.pid!, 'SIGINT');
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000))]);
      assert.equal(code, 1, `exit code after Ctrl-C (partial result): ${code}\n${readFileSync(`${out}.err`, 'utf8')}`);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await stopWine();
    }
    const file = path.join(dir.linux, 'stopped run.json');
    assert.ok(existsSync(file), 'the partial result was written');
    const r = readResult(file);
    assert.equal(r.partial, true);
    assert.match(r.partialReason ?? '', /stopped by the user/);
    assert.ok(r.total.bytes > 0, 'what was measured before the stop is kept');
    assert.ok(r.total.seconds !== null && r.total.seconds < 50, `the run ended at the stop, not at -t 60 (${r.total.seconds} s)`);
  });

  it("the identity and peers live under %LOCALAPPDATA%\\Longhaul\\trust, protected by the folder's ACL", async (t) => {
    if (!laneReady(t)) return;
    const run = await runWindowsNode(['bin/longhaul.js', 'peers', '--json'], { timeoutMs: 60_000, env: { LONGHAUL_TRUST_DIR: '' } });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const trust = toLinuxPath(`${windowsUserDir()}\\AppData\\Local\\Longhaul\\trust`);
    assert.ok(existsSync(trust), `trust folder at ${trust}`);
    const files = readdirSync(trust);
    assert.ok(
      files.some((f) => /identity/.test(f)),
      `identity created: ${files.join(', ')}`,
    );
    // Either the ACL was set (marker) or the CLI said why it kept the inherited (profile) ACL.
    assert.ok(files.includes('windows-acl.txt') || /ACL|icacls/i.test(run.stderr), `ACL: ${files.join(', ')}\n${run.stderr}`);
    t.diagnostic(`trust folder: ${files.join(', ')}; stderr: ${run.stderr.trim().slice(0, 300)}`);
  });
});
