/**
 * Seed 000 with the Windows build at the receiving end: a 4 Mbit/s link with a
 * 1.3 s RTT (the kernel WAN harness), Longhaul's Windows build under Wine in
 * namespace A receiving (`run -R -w 8760`), a Linux responder in B sending.
 * Wine creates its sockets in wineserver, so the lane's wineserver is started
 * inside A for this test (no other Wine process may run: the lane lock).
 *
 * What it shows: the Windows end's SO_RCVBUF, set before its SYN, is the
 * window the Linux sender sees (its snd_wnd), the run goes at window / RTT,
 * and the diagnosis, from the Linux sender's TCP_INFO, says the window is the
 * limit. Wine hands SO_RCVBUF to the Linux kernel, which doubles it and
 * advertises its payload share of that: the window the sender saw is what the
 * model uses, and the test prints it beside the 8,760 B asked for.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { nodeExePath, PROJECT_DIR, wineEnv } from '../../scripts/windows-lane/lane.js';
import { within } from '../helpers/net.js';
import { wanSkipReason } from '../wan/preflight.js';
import { waitForOutput } from '../wan/run-cmd.js';
import { createWanLink, type WanLink } from '../wan/wan-link.js';
import { laneReady, stopWine, toWindowsPath, useWindowsLane } from './wine-node.js';

useWindowsLane();

const wanSkip = (await wanSkipReason()) ?? false;
const RATE = 4_000_000;
const ONE_WAY_MS = 650;
const SECONDS = 16;

describe('seed 000 on the Windows build: -w 8760 over a 1.3 s RTT link', { skip: wanSkip, timeout: 180_000 }, () => {
  let link: WanLink | undefined;
  let dir = '';
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: ONE_WAY_MS });
    // Reno at both ends, as in test/wan/wan-window.test.ts: BBR paces a six-segment window and its
    // sender then counts only about half its busy time as receive-window-limited (measured 51 %),
    // which puts the kernel's own verdict on a knife edge; Reno's is ~98 %.
    for (const exec of [link.execInA.bind(link), link.execInB.bind(link)]) await exec('sysctl', ['-qw', 'net.ipv4.tcp_congestion_control=reno']);
    dir = mkdtempSync(path.join(os.tmpdir(), 'longhaul-wan-wine-'));
  });
  after(async () => {
    await stopWine(); // the wineserver that lived in namespace A
    await link?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the Windows receiver's window, set before its SYN, holds the Linux sender to window / RTT, and the verdict says so", async (t) => {
    if (!laneReady(t)) return;
    await stopWine(); // a wineserver started outside A would create A's sockets in the root namespace
    const trust = process.env.LONGHAUL_TRUST_DIR ?? path.join(dir, 'trust');
    const listener = link!.spawnInB(process.execPath, [path.join(PROJECT_DIR, 'bin', 'longhaul.js'), 'listen', '--port', '0', '--once', '--no-advertise'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LONGHAUL_TRUST_DIR: trust },
    });
    const listenerDone = new Promise<void>((resolve) => listener.once('close', () => resolve()));
    try {
      const port = (await waitForOutput(listener, /listening on \S+:(\d+)/, 15_000))[1]!;
      const json = path.join(dir, 'seed wine.json');
      const out = openSync(path.join(dir, 'out'), 'w');
      const err = openSync(path.join(dir, 'err'), 'w');
      const controller = link!.spawnInA(
        'wine',
        [nodeExePath(), 'bin/longhaul.js', 'run', `${link!.bAddr}:${port}`, '-R', '-w', '8760', '-t', String(SECONDS), '--json', toWindowsPath(json)],
        {
          cwd: PROJECT_DIR,
          stdio: ['ignore', out, err],
          env: { ...process.env, ...wineEnv(), PREBUILDS_ONLY: '1', LONGHAUL_TRUST_DIR: toWindowsPath(trust) },
        },
      );
      closeSync(out);
      closeSync(err);
      const code = await within(new Promise<number | null>((r) => controller.once('exit', (c) => r(c))), (SECONDS + 60) * 1000, 'the Windows controller');
      assert.equal(code, 0, `exit ${code}\n${readFileSync(path.join(dir, 'out'), 'utf8')}\n${readFileSync(path.join(dir, 'err'), 'utf8')}`);
      await within(listenerDone, 15_000, 'longhaul listen --once after the run');
      const r = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
      const s = r.streams[0]!;
      assert.equal(r.partial, false, r.partialReason ?? '');
      assert.equal(s.receive?.side, 'controller');
      assert.equal(s.receive?.io, 'native', "the Windows end received on the addon's Winsock loop");
      assert.equal(s.receive?.socket?.appliedBeforeHandshake, true, JSON.stringify(s.receive?.socket));
      assert.equal(s.receive?.socket?.rcvBufBytes, 8760, "the Windows end's SO_RCVBUF as Windows reports it");
      // The Linux sender's view of the Windows receiver's window, and its RTT.
      const tcp = (s.send?.tcp ?? []).filter((x) => x.sndWndBytes !== null && x.rttUs !== null);
      assert.ok(tcp.length >= 5, `the Linux sender's TCP_INFO series (${tcp.length} readings)`);
      const mid = tcp.slice(Math.floor(tcp.length / 3));
      const wnd = mid.map((x) => x.sndWndBytes!).sort((a, b) => a - b)[Math.floor(mid.length / 2)]!;
      const rttS = mid.map((x) => x.rttUs!).sort((a, b) => a - b)[Math.floor(mid.length / 2)]! / 1e6;
      const model = (wnd * 8) / rttS;
      const got = s.bitsPerSecond ?? 0;
      t.diagnostic(
        `Windows SO_RCVBUF 8,760 B -> window the Linux sender saw ${wnd} B; RTT ${rttS.toFixed(3)} s; ` +
          `measured ${(got / 1e3).toFixed(1)} kbit/s vs window/RTT ${(model / 1e3).toFixed(1)} kbit/s (ratio ${(got / model).toFixed(3)}); ` +
          `vs 8,760 B / RTT ${((8760 * 8) / rttS / 1e3).toFixed(1)} kbit/s; verdict: ${r.diagnosis?.[0]?.sentence ?? 'none'} ` +
          `${JSON.stringify(r.diagnosis?.[0]?.numbers)}; last sender reading ${JSON.stringify(s.send?.tcp?.at(-1))}; stream ${s.seconds} s, first/last ${s.receive?.firstT}/${s.receive?.lastT}`,
      );
      assert.ok(wnd <= 4 * 8760, `the window the sender saw (${wnd} B) follows the 8,760 B asked for, not autotuning`);
      assert.ok(rttS > 1.25 && rttS < 1.6, `RTT ${rttS} s`);
      // The whole run includes the handshake's first window: ±20 % of window/RTT.
      assert.ok(Math.abs(got / model - 1) <= 0.2, `measured ${got} bit/s vs window/RTT ${model.toFixed(0)} bit/s`);
      assert.equal(r.diagnosis?.[0]?.verdict, 'window-limited', r.diagnosis?.[0]?.sentence);
    } finally {
      if (listener.exitCode === null && listener.signalCode === null) listener.kill('SIGKILL');
    }
  });
});
