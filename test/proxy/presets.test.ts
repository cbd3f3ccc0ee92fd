import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkSpecFromFlags, lossFlag, parseBypassTimes } from '../../electron/cli/link-options.js';
import { chainFromSettings, modelCeilingBitsPerSec, parseLinkSettings } from '../../electron/proxy/link-settings.js';
import { LINK_PRESETS, findPreset } from '../../electron/proxy/presets.js';

describe('link presets and flags', () => {
  it('every preset is valid settings with its numbers in the open', () => {
    assert.deepEqual(
      LINK_PRESETS.map((p) => p.name),
      ['satellite', 'geostationary', 'transcontinental', 'lossy-wifi', 'lan'],
    );
    for (const p of LINK_PRESETS) {
      assert.deepEqual(parseLinkSettings(p.settings), p.settings, p.name);
      assert.ok(
        chainFromSettings(p.settings).some((c) => c.type === 'delay'),
        `${p.name} has a delay stage`,
      );
    }
    const sat = findPreset('Satellite')!.settings;
    assert.equal(sat.delayMs * 2, 1300);
    assert.equal(sat.rateBitsPerSec, 4e6);
    assert.equal(findPreset('transcontinental')!.settings.delayMs * 2, 78);
    assert.equal(findPreset('geostationary')!.settings.delayMs * 2, 600);
  });

  it('flags edit a preset; the run window becomes the emulated window', () => {
    const r = linkSpecFromFlags({ link: 'satellite', rate: '2mbit', loss: '0.1%' }, 65_536)!;
    assert.equal(r.preset, 'satellite');
    assert.deepEqual(r.spec.settings, {
      delayMs: 650,
      jitterMs: 0,
      rateBitsPerSec: 2e6,
      windowBytes: 65_536,
      slowstart: true,
      lossRatio: 0.001,
      mssBytes: 1448,
    });
    assert.deepEqual(
      r.spec.chains.up.map((c) => c.type),
      ['window', 'slowstart', 'loss', 'rate', 'delay'],
    );
    assert.ok(Math.abs(modelCeilingBitsPerSec(r.spec.settings!)! - 403_298) < 1, '64 KiB over 1.3 s');
    assert.equal(linkSpecFromFlags({ link: 'satellite', slowstart: false })!.spec.settings!.slowstart, false);
    assert.equal(linkSpecFromFlags({}), null, 'no link flag, no link');
    const periodic = linkSpecFromFlags({ link: 'satellite', loss: '1%', lossPattern: 'periodic' })!.spec;
    assert.equal(periodic.settings!.lossPattern, 'periodic');
    assert.equal(periodic.chains.up.find((c) => c.type === 'loss')!.pattern, 'periodic', 'the stage gets the pattern');
    assert.equal(linkSpecFromFlags({ link: 'satellite', loss: '1%' })!.spec.chains.up.find((c) => c.type === 'loss')!.pattern, 'random');
    assert.throws(() => linkSpecFromFlags({ link: 'satellite', lossPattern: 'periodic' }), {
      code: 'LH_ERR_BAD_ARGUMENT',
      message: /--loss-pattern: needs a --loss/,
    });
  });

  it('parses loss ratios and bypass times, and refuses nonsense', () => {
    assert.equal(lossFlag('0.1%'), 0.001);
    assert.equal(lossFlag('0.01'), 0.01);
    assert.throws(() => lossFlag('-1%'), { code: 'LH_ERR_BAD_ARGUMENT' });
    assert.throws(() => lossFlag('lots'), { code: 'LH_ERR_BAD_ARGUMENT' });
    assert.deepEqual(parseBypassTimes('3s,6s,500ms'.replace('500ms', '6.5')), [3, 6, 6.5]);
    assert.throws(() => parseBypassTimes('6s,3s'), { code: 'LH_ERR_BAD_ARGUMENT', message: /increase/ });
  });
});
