/**
 * A UI run through the link emulator, on the real engine and a real proxy
 * process: the app's own responder on 127.0.0.1, the delay proxy in front of
 * it, the bypass switched on and off during the run. The switches must land
 * in the result, the rate must follow them (shaped when on the link, far
 * above the link rate when bypassed), live samples must carry TCP_INFO when
 * the addon is built, and the proxy must be gone once the run ends.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Events, LiveSample, RunEnded, RunPhase } from '../../electron/contract/api.js';
import type { LinkSettingsInfo } from '../../electron/contract/link-info.js';
import { readLocalSettings } from '../../electron/engine/session/local-settings.js';
import { nativeSockets } from '../../electron/native/load-native.js';
import { within } from '../helpers/net.js';

const RATE = 20e6;

describe('app backend: a run through the link emulator', { timeout: 60_000 }, () => {
  let dir: string;
  let backend: AppBackend;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-linkrun-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, saveExport: async (f) => ({ kind: 'download', ...f }) });
  });
  after(async () => {
    await backend.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the presets with every number', async () => {
    const presets = await backend.call('linkPresets', null);
    const sat = presets.find((p) => p.name === 'satellite');
    assert.ok(sat, 'satellite preset');
    assert.equal(sat.settings.delayMs, 650);
    assert.equal(sat.settings.rateBitsPerSec, 4e6);
    assert.ok(presets.every((p) => p.label && p.about && typeof p.settings.lossRatio === 'number'));
  });

  it('records bypass switches made during the run, and the rate follows them', async () => {
    const r = await backend.call('startResponder', { port: 0, bind: '127.0.0.1' });
    assert.equal(r.state, 'listening');
    const settings: LinkSettingsInfo = { delayMs: 10, jitterMs: 0, rateBitsPerSec: RATE, windowBytes: null, slowstart: false, lossRatio: 0, mssBytes: 1448 };
    const samples: LiveSample[] = [];
    let phase = 'hello' as RunPhase;
    let running: () => void;
    const isRunning = new Promise<void>((res) => (running = res));
    let ended: (e: RunEnded) => void;
    const end = new Promise<RunEnded>((res) => (ended = res));
    const unsubscribe = backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onSample') samples.push(payload as LiveSample);
      if (name === 'onPhase' && (phase = (payload as { phase: RunPhase }).phase) === 'running') running();
      if (name === 'onRunEnd') ended(payload as RunEnded);
    });
    const params = { streams: 2, bufferBytes: 65536, windowBytes: null, bytes: null, seconds: 4, direction: 'forward' as const, intervalSeconds: 0.25 };
    const { runId } = await backend.call('startRun', { host: '127.0.0.1', port: r.port!, params, link: { kind: 'proxy', preset: null, settings } });
    try {
      await within(isRunning, 15_000, 'the run reaching "running"');
      await new Promise((res) => setTimeout(res, 1200));
      const on = await backend.call('setBypass', { runId, bypass: true });
      assert.equal(on.bypass, true);
      assert.equal(on.toggles.length, 1);
      await new Promise((res) => setTimeout(res, 1200));
      const off = await backend.call('setBypass', { runId, bypass: false });
      assert.equal(off.bypass, false);
      assert.equal(off.toggles.length, 2);
      // Asking for the state it already has switches nothing.
      assert.equal((await backend.call('setBypass', { runId, bypass: false })).toggles.length, 2);
    } finally {
      if (phase !== 'done') await backend.call('stopRun', { runId }).catch(() => undefined);
    }
    const e = await within(end, 40_000, 'the run through the proxy');
    unsubscribe();
    await backend.call('stopResponder', null);

    const link = e.result.link;
    assert.ok(link, 'the result records the link');
    assert.equal(link.target, `127.0.0.1:${r.port}`, 'the partner behind the proxy (responder.address is the proxy)');
    assert.deepEqual(link.settings, settings);
    assert.equal(link.modelCeilingBitsPerSec, RATE * (1448 / 1514), 'the rate is on the wire: 66 header bytes per 1448-byte segment');
    assert.deepEqual(
      link.bypassToggles.map((b) => b.bypass),
      [true, false],
    );
    const [tOn, tOff] = link.bypassToggles.map((b) => b.t) as [number, number];
    assert.ok(tOn > 0.5 && tOff - tOn > 0.8 && tOff < params.seconds + 1, `toggles at ${tOn} s and ${tOff} s`);

    // The rate follows the switches (10 % slack on the link's rate for the interval ticks' own jitter).
    const rate = (iv: { receivedBytes: number | null; seconds: number }): number => ((iv.receivedBytes ?? 0) * 8) / iv.seconds;
    const ivs = e.result.intervals.filter((iv) => iv.seconds > 0.1);
    // Toggle times are on the controller's clock (t = 0 when it sent the start); an interval's bytes, t and length are the
    // receiver's, whose clock starts when that start message arrives: d later, d > 0 (the message crosses the 10 ms link).
    // On the controller's clock the interval is [t - seconds + d, t + d]. (Its controllerT is the controller's own tick
    // of the same index: on a loaded PC the two ticks are not taken at the same moment, so it says nothing of these bytes.)
    // An interval is before the switch if t + d < tOn: t < tOn - one interval, as d is far below 0.25 s; after the switch
    // back if t - seconds + d > tOff: t - seconds > tOff suffices.
    const endOf = (iv: { t: number }): number => iv.t;
    const step = params.intervalSeconds;
    const before = ivs.filter((iv) => endOf(iv) < tOn - step);
    const bypassed = ivs.filter((iv) => endOf(iv) - iv.seconds > tOn + 0.1 && endOf(iv) < tOff);
    // After the switch back, what the bypass had already put in the proxy's queues and the kernels' socket buffers
    // (megabytes at loopback speed) still arrives as fast as the receiver reads it: true bytes, not the link's. How long
    // that takes depends on the receiver's CPU (0.2 s on a quiet PC, more than 1 s once with a core busy), so the test
    // finds the end of that backlog in the data: the first interval at the link's rate. From there on every interval
    // must stay at the link's rate: the shaper gives no burst for the time it was bypassed.
    const after = ivs.filter((iv) => endOf(iv) - iv.seconds > tOff);
    const drainedAt = after.findIndex((iv) => rate(iv) < 1.1 * RATE);
    const backlog = drainedAt < 0 ? after : after.slice(0, drainedAt);
    const shaped = [...before, ...(drainedAt < 0 ? [] : after.slice(drainedAt))];
    const mbit = (x: number): string => (x / 1e6).toFixed(1);
    const backlogBytes = backlog.reduce((s, iv) => s + (iv.receivedBytes ?? 0), 0);
    console.log(
      `# link ${RATE / 1e6} Mbit/s, toggles at ${tOn.toFixed(3)} s, ${tOff.toFixed(3)} s; per interval (receiver's end, Mbit/s): ` +
        ivs.map((iv) => `${endOf(iv).toFixed(2)}:${mbit(rate(iv))}`).join(' ') +
        `; backlog after the switch back: ${backlog.length} intervals, ${(backlogBytes / 1e6).toFixed(1)} MB` +
        `; first byte received at ${e.result.streams.map((s) => s.receive?.firstT?.toFixed(3)).join(', ')} s`,
    );
    assert.ok(before.length >= 2, `${before.length} intervals before the bypass`);
    assert.ok(bypassed.length >= 1, `${bypassed.length} intervals inside the bypass`);
    assert.ok(drainedAt >= 0, 'the link rate is back after the switch back');
    assert.ok(Math.max(...bypassed.map(rate)) > 1.5 * RATE, 'bypassed: above the link rate');
    for (const iv of shaped) assert.ok(rate(iv) < 1.1 * RATE, `on the link: ${mbit(rate(iv))} Mbit/s in the interval ending at ${endOf(iv).toFixed(2)} s`);

    // With the addon, the controller's live samples carry its sending ends' RTT and cwnd.
    if (nativeSockets().api) {
      const tcp = samples.filter((s) => s.side === 'controller').flatMap((s) => s.tcp ?? []);
      assert.ok(tcp.length > 0, 'live TCP readings');
      assert.deepEqual([...new Set(tcp.map((x) => x.id))].sort(), [0, 1]);
      assert.ok(tcp.some((x) => x.rttUs !== null && x.rttUs > 0 && x.sndCwndBytes !== null && x.sndCwndBytes > 0));
    }
    assert.ok(
      samples.filter((s) => s.side === 'responder').every((s) => s.tcp === undefined),
      'the responder only receives here: no sender readings',
    );

    // The proxy process is gone: its port refuses.
    const proxyPort = Number(e.result.responder.address.split(':').pop());
    assert.equal((await backend.call('checkPeer', { host: '127.0.0.1', port: proxyPort })).verdict, 'refused');
    await assert.rejects(backend.call('setBypass', { runId, bypass: true }), { code: 'LH_ERR_NOT_FOUND' });
  });

  it("takes the path's rate (the Test screen's field): the result records it, the advice fills it, the partner's values are its own", async () => {
    const r = await backend.call('startResponder', { port: 0, bind: '127.0.0.1' });
    const settings: LinkSettingsInfo = { delayMs: 50, jitterMs: 0, rateBitsPerSec: 4e6, windowBytes: 16384, slowstart: false, lossRatio: 0, mssBytes: 1448 };
    const params = {
      streams: 1,
      bufferBytes: 65536,
      windowBytes: 16384,
      bytes: 256 * 1024,
      seconds: null,
      direction: 'forward' as const,
      intervalSeconds: 0.5,
    };
    const link = { kind: 'proxy' as const, preset: null, settings };
    for (const bad of [0, -1, 2e12]) {
      await assert.rejects(
        backend.call('startRun', { host: '127.0.0.1', port: r.port!, params, link, pathRateBitsPerSec: bad }),
        { code: 'LH_ERR_BAD_ARGUMENT' },
        String(bad),
      );
    }
    let ended: (e: RunEnded) => void;
    const end = new Promise<RunEnded>((res) => (ended = res));
    const unsubscribe = backend.hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name === 'onRunEnd') ended(payload as RunEnded);
    });
    await backend.call('startRun', { host: '127.0.0.1', port: r.port!, params, link, pathRateBitsPerSec: 1e10 });
    const e = await within(end, 30_000, 'the run through the emulator');
    unsubscribe();
    assert.deepEqual(e.result.pathRate, { bitsPerSecond: 1e10, source: 'given' });
    assert.equal(e.result.diagnosis?.[0]?.verdict, 'window-limited', e.result.diagnosis?.[0]?.sentence);
    const window = e.result.advice?.find((a) => a.topic === 'link-emulator');
    assert.match(window?.neededValue ?? '', /at least 125,000,000 bytes per stream/, JSON.stringify(e.result.advice));
    assert.deepEqual(e.result.responder.settings, await readLocalSettings(), 'the responder sent the values it read (this PC: loopback)');
  });
});
