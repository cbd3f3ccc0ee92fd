/**
 * --window on real runs over loopback (responder in this process, data in
 * worker processes): the window reaches the wire on both ends (tcp_info
 * proves it), requested and effective sizes are recorded, the TCP_INFO series
 * and the verdict are in the result, the shared listener gets its buffers back,
 * and without the addon a run still completes and lists what it could not measure.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { socketFd } from '../../electron/native/node-handle.js';
import { requireNative, skipWithoutNative, sysctlBytes } from '../helpers/native.js';
import { startResponder, within } from '../helpers/net.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

async function runWithWindow(
  windowBytes: number | null,
  direction: RunParams['direction'],
): Promise<{ result: LonghaulResult; listenerBefore: unknown; listenerAfter: unknown }> {
  const api = requireNative();
  const { responder, port, security } = await startResponder({ maxWorkersPerRole: 1 });
  try {
    const server = (responder as unknown as { server: net.Server }).server;
    const listenerBefore = api.getBuffers(socketFd(server)!);
    const ended = new Promise((r) => responder.once('session-end', r));
    const run = startRun({
      host: '127.0.0.1',
      port,
      security,
      maxWorkersPerRole: 1,
      params: { ...DEFAULT_PARAMS, windowBytes, seconds: 1.5, intervalSeconds: 0.5, direction },
    });
    const result = await within(run.result, 20_000, 'the run');
    await within(ended, 10_000, 'the responder session end');
    return { result, listenerBefore, listenerAfter: api.getBuffers(socketFd(server)!) };
  } finally {
    await (responder as Responder).close();
  }
}

describe('--window on real loopback runs', { timeout: 60_000 }, () => {
  it(
    'forward, 8,760 B: applied on both ends before the handshake, snd_wnd within the request (Linux: clamp) or the buffer, scale 0',
    { skip: skipWithoutNative },
    async () => {
      const { result: r, listenerBefore, listenerAfter } = await runWithWindow(8760, 'forward');
      assert.equal(r.partial, false, r.partialReason ?? '');
      assert.equal(r.window.applied, true, r.window.note);
      const s = r.streams[0]!;
      // Linux: TCP_WINDOW_CLAMP 8,760 with buffers of twice it (read back doubled: 35,040); elsewhere buffers of 8,760.
      const clamped = typeof s.receive!.socket!.windowClampBytes === 'number';
      const effective = clamped ? 35_040 : 17_520;
      assert.deepEqual(r.window.effectiveRcvBufBytes, { min: effective, max: effective }, 'Linux doubles the request; reported, not hidden');
      for (const end of [s.send!, s.receive!]) {
        const sock = end.socket!;
        assert.equal(sock.requestedBytes, 8760);
        assert.equal(sock.appliedBeforeHandshake, true);
        if (clamped) assert.equal(sock.windowClampBytes, 8760);
        assert.equal(sock.rcvBufBytes, effective);
        assert.equal(sock.sndBufBytes, effective);
        assert.equal(sock.rcvWscale, 0, `${end.side} announced scale 0`);
        assert.equal(sock.sndWscale, 0, `${end.side} saw scale 0`);
        assert.deepEqual(sock.unavailable, []);
      }
      const series = s.send!.tcp!;
      assert.ok(series.length >= 2, `${series.length} sender TCP_INFO readings`);
      const wnds = series.map((x) => x.sndWndBytes).filter((v): v is number => v !== null);
      // Without the clamp, Linux >= 6.5's measured scaling ratio sometimes advertised 13,140 of a 17,520 B buffer; the clamp bounds it at the request.
      const bound = clamped ? 8760 : 17_520;
      assert.ok(wnds.length >= 2 && wnds.every((w) => w > 0 && w <= bound), `snd_wnd readings ${wnds.join(', ')} (bound ${bound})`);
      assert.deepEqual(r.window.advertisedBytes, { min: Math.min(...wnds), max: Math.max(...wnds) });
      assert.match(r.window.note, /advertised \(the senders' snd_wnd\)/);
      assert.ok(series.every((x) => x.rttUs !== null && x.sndCwndBytes !== null && x.totalRetransSegments !== null));
      assert.ok(
        s.receive!.tcp!.some((x) => x.rcvSpaceBytes !== null),
        'receiver rcv_space recorded',
      );
      const d = r.diagnosis![0]!;
      // On loopback with 17,520-byte buffers the verdict depends on the machine's load: the kernel
      // books the stalls as receive-window time, or the sender as not busy, or the receiving host
      // as the bottleneck. Here only "a diagnosis from measured numbers" is asserted; the
      // unambiguous window-limited case runs over a real RTT in test/wan/wan-longhaul.test.ts.
      assert.notEqual(d.verdict, 'unknown', d.sentence);
      assert.match(d.sentence, /measured [\d.]+ [kMG]bit\/s/);
      assert.deepEqual(r.unavailable, []);
      assert.deepEqual(listenerAfter, listenerBefore, 'the shared listener got its buffers and autotuning back');
    },
  );

  it("reverse, 8,760 B: the responder sends into the controller's pre-connect window", { skip: skipWithoutNative }, async () => {
    const { result: r } = await runWithWindow(8760, 'reverse');
    assert.equal(r.partial, false, r.partialReason ?? '');
    const s = r.streams[0]!;
    assert.equal(s.sender, 'responder');
    const wnds = s.send!.tcp!.map((x) => x.sndWndBytes).filter((v): v is number => v !== null);
    const bound = typeof s.receive!.socket!.windowClampBytes === 'number' ? 8760 : 17_520;
    assert.ok(wnds.length >= 2 && wnds.every((w) => w <= bound), `snd_wnd readings ${wnds.join(', ')} (bound ${bound})`);
    assert.equal(s.send!.socket!.sndWscale, 0);
    assert.equal(r.diagnosis![0]!.direction, 'responderToController');
    // The responder's socket reports and sender readings crossed the control channel whole.
    if (process.platform === 'linux') {
      const host = readFileSync('/proc/sys/net/ipv4/tcp_congestion_control', 'utf8').trim();
      assert.deepEqual([s.send!.socket!.congestionControl, s.receive!.socket!.congestionControl], [host, host]);
      const last = s.send!.tcp!.at(-1)!;
      assert.equal(last.retransSource, 'counted');
      assert.equal(typeof last.bytesRetrans, 'number');
      assert.equal(typeof last.dsackDups, 'number');
      assert.ok(last.pacingRateBitsPerSecond! > 0, `pacing rate ${last.pacingRateBitsPerSecond}`);
    }
  });

  it('forward, 4 MiB: window scale > 0, effective size doubled, capped at rmem_max unless forced', { skip: skipWithoutNative }, async () => {
    const requested = 4 * 1024 * 1024;
    const { result: r } = await runWithWindow(requested, 'forward');
    assert.equal(r.partial, false, r.partialReason ?? '');
    const s = r.streams[0]!;
    assert.ok(s.send!.socket!.sndWscale! > 0, `scale ${s.send!.socket!.sndWscale}`);
    const rcv = s.receive!.socket!;
    if (typeof rcv.windowClampBytes === 'number') {
      // Linux: clamp = the request, buffers of twice it, above rmem_max with SO_RCVBUFFORCE when allowed (root).
      assert.equal(rcv.windowClampBytes, requested);
      const expected = rcv.buffersForced ? 4 * requested : 2 * Math.min(2 * requested, sysctlBytes('rmem_max'));
      assert.equal(rcv.rcvBufBytes, expected, `forced: ${rcv.buffersForced}`);
      if (!rcv.buffersForced)
        assert.ok(
          rcv.unavailable.some((u) => u.field === 'window.advertised'),
          'a capped buffer is reported',
        );
    } else {
      assert.equal(rcv.rcvBufBytes, 2 * Math.min(requested, sysctlBytes('rmem_max')));
      assert.equal(s.send!.socket!.sndBufBytes, 2 * Math.min(requested, sysctlBytes('wmem_max')));
    }
  });

  it('without the addon (LONGHAUL_NO_NATIVE=1) a CLI run completes, says "OS default (autotuning)" and lists what is unavailable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lh-nonative-'));
    try {
      const json = path.join(dir, 'r.json');
      const p = spawnSync(process.execPath, [BIN, 'loopback', '-t', '1', '-w', '64K', '--json', json], {
        env: { ...process.env, LONGHAUL_NO_NATIVE: '1' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(p.status, 0, p.stderr);
      assert.match(p.stdout, /OS default \(autotuning\)/);
      const r = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
      assert.equal(r.partial, false);
      assert.ok(r.total.bytes > 0);
      assert.equal(r.window.applied, false);
      assert.match(r.window.note, /LONGHAUL_NO_NATIVE=1/);
      for (const side of ['controller', 'responder'] as const) {
        for (const field of ['tcp', 'rcvBufBytes', 'sndBufBytes', 'sndMssBytes', 'sndWscale', 'window']) {
          assert.ok(
            r.unavailable!.some((u) => u.side === side && u.field === field && /LONGHAUL_NO_NATIVE=1/.test(u.reason)),
            `${side} ${field} listed`,
          );
        }
      }
      const s = r.streams[0]!;
      assert.equal(s.send!.tcp, undefined, 'no made-up TCP_INFO series');
      assert.equal(s.send!.socket!.rcvBufBytes, null, 'no made-up buffer size');
      assert.equal(r.diagnosis![0]!.verdict, 'unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
