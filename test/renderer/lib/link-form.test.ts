/** The Link screen's form: a preset's numbers in and out unchanged, bad fields named, loss as a ratio. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uiLinkPresets } from '../../../electron/app/run-link.js';
import { parseLinkSettings } from '../../../electron/proxy/link-settings.js';
import { parseLossRatio } from '../../../electron/contract/link-limits.js';
import { applyPreset, DEFAULT_LINK_FORM, formFromPreset, linkChoice, rateText, validateLinkForm } from '../../../renderer/src/lib/link-form.js';
import { parseWindow } from '../../../renderer/src/lib/test-form.js';

describe('link form', () => {
  it('round-trips every preset: form → settings equals the preset, and the host accepts them', () => {
    for (const p of uiLinkPresets()) {
      const o = validateLinkForm(formFromPreset(p, 'proxy'), p.settings.windowBytes);
      assert.deepEqual(o.errors, {}, p.name);
      assert.deepEqual(o.settings, p.settings, p.name);
      assert.deepEqual(parseLinkSettings(o.settings), p.settings);
    }
  });

  it('scales the satellite preset short, with the test window as the emulated window', () => {
    const sat = uiLinkPresets().find((p) => p.name === 'satellite')!;
    const f = { ...formFromPreset(sat, 'proxy' as const), rtt: '100ms' };
    const choice = linkChoice(f, 65_536);
    assert.deepEqual(choice, { kind: 'proxy', preset: 'satellite', settings: { ...sat.settings, delayMs: 50, windowBytes: 65_536 } });
    assert.deepEqual(linkChoice({ ...f, kind: 'direct' }, 65_536), { kind: 'direct' });
  });

  it('names each bad field and gives no settings', () => {
    const o = validateLinkForm({ ...DEFAULT_LINK_FORM, kind: 'proxy', rtt: '-5ms', rate: '0', loss: '60%', mss: '12', jitter: 'x' }, null);
    assert.deepEqual(Object.keys(o.errors).sort(), ['jitter', 'loss', 'mss', 'rate', 'rtt']);
    assert.equal(o.settings, null);
    assert.equal(linkChoice({ ...DEFAULT_LINK_FORM, kind: 'proxy', rate: 'fast' }, null), null);
  });

  it('reads loss as percent or ratio, and writes rates as typed', () => {
    assert.deepEqual(parseLossRatio('0.1%'), { ok: true, value: 0.001 });
    assert.deepEqual(parseLossRatio('0.01'), { ok: true, value: 0.01 });
    assert.equal(parseLossRatio('-1%').ok, false);
    assert.deepEqual([rateText(4e6), rateText(1e9), rateText(30e6), rateText(56e3)], ['4mbit', '1gbit', '30mbit', '56kbit']);
  });
});

describe('link form: presets and typed rates', () => {
  it("accepts the app's own rate notation: 4 Mbit/s, 1Gbit/s", () => {
    assert.equal(validateLinkForm({ ...DEFAULT_LINK_FORM, kind: 'proxy', rate: '4 Mbit/s' }, null).rateBitsPerSec, 4e6);
    assert.equal(validateLinkForm({ ...DEFAULT_LINK_FORM, kind: 'proxy', rate: '1Gbit/s' }, null).rateBitsPerSec, 1e9);
  });

  it('a preset gives a form that can go on: an invalid window becomes the OS default, a valid one stays', () => {
    for (const p of uiLinkPresets()) {
      for (const typed of ['99999999999999999999', '2G', 'fast', '']) {
        const { link, window } = applyPreset(p, 'proxy', typed);
        const w = parseWindow(window);
        assert.ok(w.ok, `${p.name} after "${typed}": window "${window}"`);
        assert.notEqual(linkChoice(link, w.value), null, p.name);
      }
      assert.equal(applyPreset(p, 'proxy', '64K').window, '64K');
    }
  });
});
