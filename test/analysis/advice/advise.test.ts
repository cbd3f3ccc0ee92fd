/**
 * Advice rules, table-driven: per verdict, per OS of the end that must change,
 * what is named and with which value. Fixtures are the seed case (4 Mbit/s,
 * 1.3 s RTT, 8,760-byte window) and variations of it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { PeerOs } from '../../../electron/contract/advice.js';
import type { Diagnosis, LonghaulResult } from '../../../electron/contract/result.js';
import { adviseResult } from '../../../electron/analysis/advice/advise.js';
import { LocalSettingsRead, readLocalSettings, WINDOWS_AUTOTUNING_KEY } from '../../../electron/engine/session/local-settings.js';
import { autotuningLevelFor } from '../../../electron/analysis/advice/windows.js';
import { emulatedLink, makeResult, seedDiagnosis } from '../../helpers/result-fixtures.js';

const LINUX: PeerOs = { platform: 'linux', release: '6.18.0' };

interface Fixture {
  verdict?: Diagnosis['verdict'];
  direction?: 'forward' | 'reverse';
  windowBytes?: number | null;
  windowScale?: number | null;
  pathRate?: number | null;
  controllerOs?: PeerOs;
  responderOs?: PeerOs;
  sndbufShare?: number | null;
}

function seed(f: Fixture = {}): LonghaulResult {
  const sender = f.direction === 'reverse' ? 'responder' : 'controller';
  const r = makeResult({ streams: [{ bytes: 8760 * 10, seconds: 13, completions: 60, sender }] });
  r.params.windowBytes = f.windowBytes === undefined ? 8760 : f.windowBytes;
  r.controller.os = f.controllerOs ?? LINUX;
  if (f.responderOs !== undefined) r.responder.os = f.responderOs;
  else r.responder.os = LINUX;
  if (f.pathRate !== null) r.pathRate = { bitsPerSecond: f.pathRate ?? 4_000_000, source: 'given' };
  r.diagnosis = [
    seedDiagnosis({
      direction: sender === 'controller' ? 'controllerToResponder' : 'responderToController',
      verdict: f.verdict ?? 'window-limited',
      numbers: {
        rwndLimitedShare: f.sndbufShare ? 0 : 0.95,
        sndbufLimitedShare: f.sndbufShare ?? 0,
        windowScale: f.windowScale === undefined ? 0 : f.windowScale,
      },
    }),
  ];
  return r;
}

const ROOMY_LINUX = { 'net.ipv4.tcp_rmem': '4096 131072 6291456', 'net.core.rmem_max': '212992', 'net.ipv4.tcp_window_scaling': '1' };

describe('advice rules', () => {
  const table: {
    name: string;
    r: LonghaulResult;
    local?: Record<string, string>;
    expect: { topic: string; side: string; setting: RegExp; needed?: RegExp; current?: string | null }[];
    absent?: RegExp[];
  }[] = [
    {
      name: "seed, Linux partner: the --window request, then the receiving PC's tcp_rmem and rmem_max for 650,000 B",
      r: seed(),
      expect: [
        { topic: 'longhaul-request', side: 'controller', setting: /--window/, needed: /at least 650,000 bytes per stream/, current: '8,760 bytes' },
        { topic: 'receive-window', side: 'responder', setting: /^net\.ipv4\.tcp_rmem/, needed: /at least 1,300,000 bytes/, current: null },
        { topic: 'receive-window', side: 'responder', setting: /^net\.core\.rmem_max/, needed: /at least 1,300,000 bytes/, current: null },
      ],
      // The run itself asked for 8,760 B: scale 0 is the OS's right answer to that, not a setting to change.
      absent: [/tcp_window_scaling/],
    },
    {
      name: 'modern Windows partner: autotuning level and the per-application buffer',
      r: seed({ responderOs: { platform: 'win32', release: '10.0.19045' } }),
      expect: [
        { topic: 'receive-window', side: 'responder', setting: /Auto-Tuning Level/, needed: /^normal/, current: null },
        { topic: 'receive-window', side: 'responder', setting: /SO_RCVBUF/, needed: /at least 650,000 bytes/ },
      ],
    },
    {
      name: 'Windows 2000 partner (5.0): the registry values of the seed, Tcp1323Opts as a DWORD',
      r: seed({ responderOs: { platform: 'win32', release: '5.0.2195' } }),
      expect: [
        { topic: 'receive-window', side: 'responder', setting: /Tcpip\\Parameters\\TcpWindowSize$/, needed: /650,000 bytes \(REG_DWORD\)/ },
        { topic: 'receive-window', side: 'responder', setting: /GlobalMaxTcpWindowSize$/, needed: /650,000/ },
        { topic: 'receive-window', side: 'responder', setting: /Tcp1323Opts$/, needed: /REG_DWORD/ },
      ],
    },
    {
      name: 'Windows 98 partner (4.10): DefaultRcvWindow under VxD\\MSTCP',
      r: seed({ responderOs: { platform: 'win32', release: '4.10.2222' } }),
      expect: [{ topic: 'receive-window', side: 'responder', setting: /VxD\\MSTCP\\DefaultRcvWindow$/, needed: /650,000/ }],
      absent: [/TcpWindowSize/],
    },
    {
      name: 'macOS partner: autorcvbufmax and maxsockbuf',
      r: seed({ responderOs: { platform: 'darwin', release: '23.1.0' } }),
      expect: [
        { topic: 'receive-window', side: 'responder', setting: /^net\.inet\.tcp\.autorcvbufmax$/, needed: /650,000/ },
        { topic: 'receive-window', side: 'responder', setting: /^kern\.ipc\.maxsockbuf$/, needed: /650,000/ },
      ],
    },
    {
      name: 'reverse run, this PC receives: values read here; a roomy tcp_rmem is left out, a small rmem_max is named with its value',
      r: seed({ direction: 'reverse' }),
      local: ROOMY_LINUX,
      expect: [{ topic: 'receive-window', side: 'controller', setting: /^net\.core\.rmem_max/, current: '212992' }],
      absent: [/tcp_rmem/],
    },
    {
      name: 'OS autotuning and scale 0: window scaling on both ends, except where this PC reads it on',
      r: seed({ windowBytes: null }),
      local: ROOMY_LINUX,
      expect: [{ topic: 'window-scaling', side: 'responder', setting: /^net\.ipv4\.tcp_window_scaling$/, needed: /^1/ }],
      absent: [/--window/],
    },
    {
      name: 'no path rate: the need is per Mbit/s, and says it is unknown',
      r: seed({ pathRate: null }),
      expect: [
        { topic: 'receive-window', side: 'responder', setting: /tcp_rmem/, needed: /^unknown until the path's rate is known: 325,000 bytes per Mbit\/s/ },
      ],
    },
    {
      name: "send buffer held the sender: the sending PC's tcp_wmem",
      r: seed({ sndbufShare: 0.8, windowBytes: null, windowScale: 7 }),
      expect: [{ topic: 'send-buffer', side: 'controller', setting: /^net\.ipv4\.tcp_wmem/, needed: /1,300,000/ }],
      absent: [/tcp_rmem/],
    },
    {
      name: 'partner that did not say its OS: named, with unknown settings',
      r: seed({ responderOs: undefined as unknown as PeerOs }),
      expect: [{ topic: 'receive-window', side: 'responder', setting: /settings of its OS/ }],
    },
  ];
  for (const c of table) {
    it(c.name, () => {
      if (c.name.startsWith('partner that did not')) delete c.r.responder.os;
      const list = adviseResult(c.r, c.local ?? {});
      for (const e of c.expect) {
        const hit = list.find((a) => a.topic === e.topic && a.side === e.side && e.setting.test(a.setting));
        assert.ok(hit, `no ${e.topic} advice for the ${e.side} matching ${e.setting}: ${JSON.stringify(list.map((a) => [a.topic, a.side, a.setting]))}`);
        if (e.needed) assert.match(hit.neededValue, e.needed);
        if (e.current !== undefined) assert.equal(hit.currentValue, e.current);
        assert.equal(hit.thisPc, e.side === c.r.writtenBy);
        assert.equal(hit.hostname, c.r[e.side as 'controller' | 'responder'].hostname);
      }
      for (const a of c.absent ?? []) assert.ok(!list.some((x) => a.test(x.setting)), `${a} should not be advised`);
    });
  }

  it('every verdict a person can act on gets advice, none of it a buffer where no buffer is the limit; the application verdict names the sender', () => {
    for (const v of ['unknown', 'emulator-limited'] as const) assert.deepEqual(adviseResult(seed({ verdict: v }), {}), []);
    const topics = (v: Diagnosis['verdict']): string[] => adviseResult(seed({ verdict: v }), {}).map((a) => `${a.side} ${a.topic}`);
    assert.deepEqual(topics('link-limited'), ['controller path']);
    assert.deepEqual(topics('congestion-limited'), ['controller run']);
    assert.deepEqual(topics('loss-limited'), ['controller congestion-control', 'controller path']);
    assert.deepEqual(topics('receiver-limited'), ['responder application']);
    assert.deepEqual(topics('cpu-limited'), ['controller cpu']);
    assert.ok(topics('send-buffer-limited').every((t) => t === 'controller send-buffer') && topics('send-buffer-limited').length > 0);
    const app = adviseResult(seed({ verdict: 'application-limited' }), {});
    assert.equal(app.length, 1);
    assert.equal(app[0]!.topic, 'application');
    assert.equal(app[0]!.side, 'controller');
  });

  it("the partner's values come from its own report in the result; a partner that sent none stays unknown", () => {
    const r = seed();
    r.responder.settings = { 'net.ipv4.tcp_rmem': '4096 131072 6291456', 'net.core.rmem_max': '212992' };
    const list = adviseResult(r, {});
    assert.equal(list.find((a) => a.side === 'responder' && /^net\.core\.rmem_max/.test(a.setting))?.currentValue, '212992');
    // 6,291,456 B covers twice 650,000 B: that setting is not the limit and is left out.
    assert.ok(!list.some((a) => a.side === 'responder' && /tcp_rmem/.test(a.setting)));
    assert.equal(adviseResult(seed(), {}).find((a) => /rmem_max/.test(a.setting))?.currentValue, null);
  });

  describe('runs through the link emulator', () => {
    const emulated = (verdict: Diagnosis['verdict'], settings: Partial<NonNullable<LonghaulResult['link']>['settings']> = {}): LonghaulResult => {
      const r = seed({ verdict, pathRate: null });
      r.link = emulatedLink({ delayMs: 650, jitterMs: 0, rateBitsPerSec: 4e6, windowBytes: 8760, slowstart: false, lossRatio: 0, mssBytes: 1448, ...settings });
      return r;
    };
    it("window: the emulated window first, then the ends' OS settings for a real path of the link's RTT and rate", () => {
      const list = adviseResult(emulated('window-limited'), {});
      assert.equal(list[0]!.topic, 'link-emulator');
      assert.match(list[0]!.setting, /emulated window/);
      assert.equal(list[0]!.currentValue, '8,760 bytes');
      assert.match(list[0]!.neededValue, /at least 650,000 bytes per stream/);
      assert.ok(!list.some((a) => a.topic === 'longhaul-request'), 'loopback --window sets the emulator, named once');
      const os = list.filter((a) => a.topic === 'receive-window');
      assert.ok(
        os.some((a) => /^net\.ipv4\.tcp_rmem/.test(a.setting) && /1,300,000/.test(a.neededValue)),
        JSON.stringify(list.map((a) => a.setting)),
      );
      for (const a of os) assert.match(a.why, /^On a real path of this RTT and rate/);
    });
    it('emulator-limited, the emulated rate, the modelled loss: the emulator or the link, never an OS setting', () => {
      for (const [verdict, setting] of [
        ['emulator-limited', /link emulator on this PC/],
        ['link-limited', /emulated link's rate/],
        ['congestion-limited', /modelled loss/],
      ] as const) {
        const list = adviseResult(emulated(verdict, { lossRatio: 0.01 }), {});
        assert.equal(list.length, 1, `${verdict}: ${JSON.stringify(list.map((a) => a.setting))}`);
        assert.equal(list[0]!.topic, 'link-emulator');
        assert.match(list[0]!.setting, setting);
        assert.match(list[0]!.why, /not (any TCP or OS setting|an OS setting)/);
        assert.equal(list[0]!.thisPc, true);
      }
      assert.deepEqual(adviseResult(emulated('congestion-limited'), {}), [], 'a ramp without loss: nothing to change');
    });
  });

  it('Windows autotuning level: never below normal, experimental past scale 8', () => {
    assert.equal(autotuningLevelFor(8760), 'normal');
    assert.equal(autotuningLevelFor(650_000), 'normal');
    assert.equal(autotuningLevelFor(65_535 * 256), 'normal');
    assert.equal(autotuningLevelFor(65_535 * 256 + 1), 'experimental');
  });

  it('reads Linux settings from /proc/sys files, leaves out what is missing, reads nothing elsewhere', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lh-proc-'));
    mkdirSync(join(root, 'net/ipv4'), { recursive: true });
    writeFileSync(join(root, 'net/ipv4/tcp_rmem'), '4096\t131072\t6291456\n');
    assert.deepEqual(await readLocalSettings('linux', root), { 'net.ipv4.tcp_rmem': '4096 131072 6291456' });
    assert.deepEqual(await readLocalSettings('freebsd', root), {});
  });

  it('reads macOS sysctls and the Windows autotuning level from their commands; a failing or foreign command leaves them unknown', async () => {
    const calls: string[] = [];
    const mac = async (file: string, args: string[]): Promise<string> => {
      calls.push([file, ...args].join(' '));
      return 'kern.ipc.maxsockbuf: 8388608\nnet.inet.tcp.autorcvbufmax: 4194304\nnet.inet.tcp.rfc1323: 1\nsecret.other: 9\n';
    };
    assert.deepEqual(await readLocalSettings('darwin', '/nowhere', mac), {
      'kern.ipc.maxsockbuf': '8388608',
      'net.inet.tcp.autorcvbufmax': '4194304',
      'net.inet.tcp.rfc1323': '1',
    });
    assert.match(calls[0]!, /^\/usr\/sbin\/sysctl kern\.ipc\.maxsockbuf net\.inet\.tcp\.autorcvbufmax/);
    const netsh =
      'Querying active state...\r\n\r\nTCP Global Parameters\r\n----------------------------------------------\r\nReceive-Side Scaling State          : enabled\r\nReceive Window Auto-Tuning Level    : highlyrestricted\r\nAdd-On Congestion Control Provider  : default\r\n';
    assert.deepEqual(await readLocalSettings('win32', '/nowhere', async () => netsh), { [WINDOWS_AUTOTUNING_KEY]: 'highlyrestricted' });
    assert.deepEqual(await readLocalSettings('win32', '/nowhere', async () => 'Paramètres globaux TCP\r\nNiveau de réglage automatique : normal'), {});
    assert.deepEqual(await readLocalSettings('darwin', '/nowhere', () => Promise.reject(new Error('ENOENT'))), {});
  });

  it('reads while the run goes: null until done, then the values; a read that fails is empty, never an error', async () => {
    let finish: (v: Record<string, string>) => void = () => undefined;
    const slow = new LocalSettingsRead(() => new Promise((resolve) => (finish = resolve)));
    assert.equal(slow.value, null, 'netsh still running: unknown, and nothing waits for it');
    finish({ [WINDOWS_AUTOTUNING_KEY]: 'normal' });
    assert.deepEqual(await slow.done, { [WINDOWS_AUTOTUNING_KEY]: 'normal' });
    assert.deepEqual(slow.value, { [WINDOWS_AUTOTUNING_KEY]: 'normal' });
    const failed = new LocalSettingsRead(() => Promise.reject(new Error('EMFILE')));
    assert.deepEqual(await failed.done, {});
    // No netsh here (Linux): the real command fails, and the settings are unknown.
    assert.deepEqual(await readLocalSettings('win32', '/nowhere'), {});
  });

  it("the macOS and Windows rules show the values read (this PC's, or the partner's as sent)", () => {
    const win = seed({ responderOs: { platform: 'win32', release: '10.0.19045' } });
    win.responder.settings = { [WINDOWS_AUTOTUNING_KEY]: 'highlyrestricted' };
    assert.equal(adviseResult(win, {}).find((a) => /Auto-Tuning Level/.test(a.setting))?.currentValue, 'highlyrestricted');
    const mac = seed({ responderOs: { platform: 'darwin', release: '23.1.0' } });
    mac.responder.settings = { 'kern.ipc.maxsockbuf': '8388608' };
    const list = adviseResult(mac, {});
    assert.equal(list.find((a) => a.setting === 'kern.ipc.maxsockbuf')?.currentValue, '8388608');
    assert.equal(list.find((a) => a.setting === 'net.inet.tcp.autorcvbufmax')?.currentValue, null);
  });
});
