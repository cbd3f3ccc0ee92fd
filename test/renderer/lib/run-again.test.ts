/** "Run again" from History: a stored run's parameters, link and partner back into the forms. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uiLinkPresets } from '../../../electron/app/run-link.js';
import { formFromPreset, validateLinkForm } from '../../../renderer/src/lib/link-form.js';
import { runAgainChoices, runAgainText } from '../../../renderer/src/lib/run-again.js';
import { DEFAULT_FORM, sizeText, validateTestForm } from '../../../renderer/src/lib/test-form.js';
import { fakeResult } from '../../helpers/results.js';

describe('run again', () => {
  it('writes sizes as a user types them', () => {
    assert.deepEqual([65_536, 20 * 1024 ** 2, 1024 ** 3, 1000, 1536].map(sizeText), ['64K', '20M', '1G', '1000', '1536']);
  });

  it('gives a direct run its parameters and partner back, and they validate to the same parameters', () => {
    const r = fakeResult('abababababababab', '2026-01-01T00:00:00.000Z', 1);
    r.params = {
      streams: 4,
      bufferBytes: 131_072,
      windowBytes: 65_536,
      bytes: null,
      seconds: 7,
      direction: 'bidir',
      intervalSeconds: 0.5,
      mssBytes: 1200,
      zeroCopy: true,
    };
    r.responder = { hostname: 'lab-7', address: '10.0.0.5:5211', software: 'longhaul 0.1.0' };
    r.pathRate = { bitsPerSecond: 4e6, source: 'given' };
    const c = runAgainChoices(r, { ...DEFAULT_FORM, distance: '4000km' });
    assert.equal(c.partner, '10.0.0.5:5211');
    assert.equal(c.partnerKind, 'longhaul');
    assert.equal(c.loopback, false);
    assert.equal(c.link, null);
    assert.equal(c.form.distance, '4000km', 'the distance is not in a result: the one typed stays');
    assert.equal(c.form.zeroCopy, true, '-Z comes back ticked');
    const o = validateTestForm(c.form);
    assert.deepEqual(o.params, r.params);
    assert.equal(o.pathRateBitsPerSec, 4e6);
  });

  it('takes the partner of an emulated run from the link record, and the link form from its settings', () => {
    const sat = uiLinkPresets().find((p) => p.name === 'satellite')!;
    const r = fakeResult('cdcdcdcdcdcdcdcd', '2026-01-01T00:00:00.000Z', 1);
    r.params = { ...r.params, bytes: 10 * 1024 ** 2, seconds: null };
    r.responder = { hostname: 'lab-7', address: '127.0.0.1:40123', software: 'longhaul 0.1.0' };
    const link = {
      emulator: 'longhaul-proxy' as const,
      preset: 'satellite',
      settings: sat.settings,
      chains: { up: [], down: [] },
      modelCeilingBitsPerSec: null,
      bypassToggles: [],
      note: '',
    };
    r.link = { ...link, target: '10.0.0.5:5211' };
    const c = runAgainChoices(r, DEFAULT_FORM);
    assert.equal(c.partner, '10.0.0.5:5211');
    assert.equal(c.loopback, false);
    assert.deepEqual(c.link, formFromPreset(sat, 'proxy'));
    assert.deepEqual(validateLinkForm(c.link!, null).settings, sat.settings);
    assert.equal(c.form.limitBy, 'bytes');
    assert.equal(c.form.bytes, '10M');
    r.link = link;
    assert.equal(runAgainChoices(r, DEFAULT_FORM).partner, null, 'an older record does not name its target: not the proxy port');
  });

  it("marks a run against the app's own responder, and an iperf3 partner", () => {
    const r = fakeResult('efefefefefefefef', '2026-01-01T00:00:00.000Z', 1);
    r.ownResponder = true;
    assert.equal(runAgainChoices(r, DEFAULT_FORM).loopback, true);
    delete r.ownResponder;
    r.responder = { hostname: 'srv', address: 'srv.example:5201', software: 'iperf3 3.16' };
    const c = runAgainChoices(r, DEFAULT_FORM);
    assert.equal(c.partnerKind, 'iperf3');
    assert.equal(c.loopback, false);
  });

  it('keeps the control port of another app on this PC: a loopback address is not "both ends here"', () => {
    const r = fakeResult('a1a1a1a1a1a1a1a1', '2026-01-01T00:00:00.000Z', 1);
    r.responder = { hostname: 'vm', address: '127.0.0.1:5501', software: 'longhaul 0.1.0' };
    const c = runAgainChoices(r, DEFAULT_FORM);
    assert.equal(c.loopback, false, 'a second longhaul ui, or a CLI listener, on this PC');
    assert.equal(c.partner, '127.0.0.1:5501');
    assert.equal(runAgainText(c), 'TCP, 1 stream, 1 s, forward, to 127.0.0.1:5501');
  });
});
