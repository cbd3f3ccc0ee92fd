/**
 * The link in words, as the CLI and reports print it: every number with its unit, loss called a
 * model for TCP and a real drop for UDP, the model's ceiling from the physics (min(rate × payload
 * share, window / RTT)), both chains in order, what a relay cannot do; and the record a result keeps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeLink, describeModelledLoss, linkInfo } from '../../electron/proxy/describe-link.js';
import { parseLinkSpec, type LinkSettings } from '../../electron/proxy/link-settings.js';
import { EMULATION_NOTE } from '../../electron/proxy/stage.js';
import type { EmulatorWatchInfo } from '../../electron/contract/link-info.js';

const settings: LinkSettings = { delayMs: 25, jitterMs: 2, rateBitsPerSec: 20e6, windowBytes: 65_536, slowstart: true, lossRatio: 0.001, mssBytes: 1448 };
const spec = parseLinkSpec(settings);
const chainWords =
  'window 65,536 bytes in flight -> slow start from 10 × 1448 bytes -> loss 0.1 % of segments (MODELLED: delivered one RTT late + cap halved) -> ' +
  'rate 20.00 Mbit/s (shaper, bounded queue) -> delay 25 ms ± 2 ms jitter (never reorders)';

describe('describeLink', () => {
  it('says a TCP link in words: delay and RTT, rate, window, slow start, modelled loss, the ceiling, both chains, the caveat', () => {
    assert.deepEqual(describeLink(spec, 'test'), [
      'Link (test): 25 ms each way (RTT 50 ms) ± 2 ms jitter, 20.00 Mbit/s each way, window 65,536 bytes, slow start from 10 × 1448 bytes, loss 0.1 % (modelled)',
      // 65,536 B × 8 / 50 ms = 10.49 Mbit/s, under 20 Mbit/s × 1448 / (1448 + 66) = 19.13 Mbit/s: the window limits
      '  model ceiling per stream, min(rate × payload share, window / RTT): 10.49 Mbit/s',
      `  up   (client -> target): ${chainWords}`,
      `  down (target -> client): ${chainWords}`,
      `  note: ${EMULATION_NOTE}`,
    ]);
  });

  it("the ceiling is the rate's payload share when no window limits: 4 Mbit/s × 1448 / 1514 = 3.83 Mbit/s", () => {
    const lines = describeLink(parseLinkSpec({ ...settings, rateBitsPerSec: 4e6, windowBytes: null }));
    assert.equal(lines[1], '  model ceiling per stream, min(rate × payload share, window / RTT): 3.83 Mbit/s');
    assert.match(lines[0] ?? '', /^Link: 25 ms each way \(RTT 50 ms\) ± 2 ms jitter, 4\.00 Mbit\/s each way, window not emulated, /);
  });

  it('says what is not emulated, and that nothing limits a plain relay', () => {
    const none = { ...settings, delayMs: 0, jitterMs: 0, rateBitsPerSec: null, windowBytes: null, slowstart: false, lossRatio: 0 };
    assert.deepEqual(describeLink(parseLinkSpec(none)), [
      'Link: 0 ms each way (RTT 0 ms), rate not limited, window not emulated, no slow start, no loss',
      '  model ceiling per stream, min(rate × payload share, window / RTT): none (nothing limits it)',
      '  up   (client -> target): no stages',
      '  down (target -> client): no stages',
    ]);
  });

  it('writes loss as a percentage without trailing zeros, and says a periodic pattern', () => {
    const lossWords = (lossRatio: number, lossPattern?: 'periodic'): string | undefined =>
      /loss [^,]*\(modelled\)/.exec(describeLink(parseLinkSpec({ ...settings, lossRatio, ...(lossPattern ? { lossPattern } : {}) }))[0] ?? '')?.[0];
    assert.equal(lossWords(0.01), 'loss 1 % (modelled)');
    assert.equal(lossWords(0.5), 'loss 50 % (modelled)');
    assert.equal(lossWords(0.0125), 'loss 1.25 % (modelled)');
    assert.equal(lossWords(0.00005), 'loss 0.005 % (modelled)');
    assert.equal(lossWords(0.01, 'periodic'), 'loss 1 % periodic (modelled)');
  });

  it('for UDP, loss is a real drop of datagrams, no window, slow start or ceiling is claimed, and the UDP note replaces the caveat', () => {
    const lines = describeLink(spec, null, 'udp');
    assert.deepEqual(lines.slice(0, 3), [
      'Link: 25 ms each way (RTT 50 ms) ± 2 ms jitter, 20.00 Mbit/s each way, loss 0.1 % of datagrams dropped',
      `  up   (client -> target): ${chainWords}`,
      `  down (target -> client): ${chainWords}`,
    ]);
    assert.equal(lines.length, 4);
    assert.match(lines[3] ?? '', /^ {2}note: UDP: each datagram crosses the emulated link as a packet: the rate counts 42 header bytes per datagram/);
    assert.ok(!lines.some((l) => l.includes('modelled') || l.includes(EMULATION_NOTE)), "no TCP model's words for datagrams");
    assert.equal(
      describeLink(parseLinkSpec({ ...settings, lossRatio: 0 }), null, 'udp')[0],
      'Link: 25 ms each way (RTT 50 ms) ± 2 ms jitter, 20.00 Mbit/s each way, no loss',
    );
  });

  it('a raw chain pair has no settings line, each direction its own stages, and a caveat once for both', () => {
    const raw = parseLinkSpec({
      up: [{ type: 'loss', lossRatio: 0.02 }],
      down: [
        { type: 'delay', delayMs: 10 },
        { type: 'loss', lossRatio: 0.01 },
      ],
    });
    const lines = describeLink(raw);
    assert.match(lines[0] ?? '', /^ {2}up {3}\(client -> target\): loss 2 % of segments/);
    assert.match(lines[1] ?? '', /^ {2}down \(target -> client\): delay 10 ms -> loss 1 % of segments/);
    assert.deepEqual(lines.slice(2), [`  note: ${EMULATION_NOTE}`]);
    const downOnly = describeLink(parseLinkSpec({ up: [{ type: 'delay', delayMs: 10 }], down: [{ type: 'loss', lossRatio: 0.01 }] }));
    assert.deepEqual(downOnly.slice(2), [`  note: ${EMULATION_NOTE}`], "the down chain's stages have their caveat too");
    assert.deepEqual(describeLink(parseLinkSpec({ up: [], down: [{ type: 'delay', delayMs: 10 }] })), [
      '  up   (client -> target): no stages',
      '  down (target -> client): delay 10 ms',
    ]);
  });
});

describe('describeModelledLoss', () => {
  it('counts with grouped digits, one halving or several, and says where there was no loss stage', () => {
    assert.equal(
      describeModelledLoss({ up: { losses: 31, segments: 3_120, halvings: 29 }, down: null }),
      'modelled loss up (client -> target): 31 of 3,120 segments lost, 29 halvings; down: no loss stage',
    );
    assert.equal(
      describeModelledLoss({ up: null, down: { losses: 1, segments: 1_000_000, halvings: 1 } }),
      'modelled loss up (client -> target): no loss stage; down: 1 of 1,000,000 segments lost, 1 halving',
    );
    assert.match(describeModelledLoss({ up: { losses: 0, segments: 5, halvings: 0 }, down: null }), /0 of 5 segments lost, 0 halvings;/);
  });
});

describe('linkInfo', () => {
  it('records the settings, both chains, the ceiling and the note, and leaves out what was not measured', () => {
    const info = linkInfo(spec, 'test', []);
    assert.deepEqual(info, {
      emulator: 'longhaul-proxy',
      preset: 'test',
      settings,
      chains: { up: spec.chains.up, down: spec.chains.down },
      modelCeilingBitsPerSec: (65_536 * 8) / 0.05,
      bypassToggles: [],
      note: EMULATION_NOTE,
    });
    assert.equal(linkInfo(parseLinkSpec({ up: [], down: [] }), null, []).modelCeilingBitsPerSec, null, 'no settings: no model to say a ceiling');
  });

  it('records the optional figures when given', () => {
    const loss = { up: { losses: 1, segments: 10, halvings: 1 }, down: null };
    const watch: EmulatorWatchInfo = {
      relay: 'js',
      relayReason: 'test',
      lateMs: 10,
      cpuSeconds: null,
      cores: 2,
      up: { releasedBytes: 5, activeSeconds: 1, lateBytes: 0, maxLateMs: 0, behindSeconds: 0 },
      down: null,
    };
    const info = linkInfo(spec, null, [{ t: 1, bypass: true }], loss, watch, '192.0.2.7:5201');
    assert.equal(info.target, '192.0.2.7:5201');
    assert.deepEqual(info.modelledLoss, loss);
    assert.deepEqual(info.emulatorWatch, watch);
    assert.deepEqual(info.bypassToggles, [{ t: 1, bypass: true }]);
    assert.equal('udpRelay' in info, false);
  });

  it('is a copy: changing the spec or the figures afterwards does not change the record', () => {
    const own = parseLinkSpec(settings);
    const loss = { up: { losses: 1, segments: 10, halvings: 1 }, down: null };
    const toggles = [{ t: 1, bypass: true }];
    const info = linkInfo(own, null, toggles, loss);
    own.settings!.delayMs = 999;
    own.chains.up[0]!.type = 'changed';
    loss.up.losses = 999;
    toggles[0]!.t = 999;
    assert.equal(info.settings?.delayMs, 25);
    assert.equal(info.chains.up[0]?.type, 'window');
    assert.equal(info.modelledLoss?.up?.losses, 1);
    assert.equal(info.bypassToggles[0]?.t, 1);
  });
});
