/** The partner's settings in `results`: sent only when asked for, checked and made printable where they enter. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMessage } from '../../electron/protocol/messages.js';
import { SETTINGS_IN_RESULTS, settingsForPartner } from '../../electron/engine/session/partner-settings.js';
import { CAPABILITIES } from '../../electron/engine/session/run-common.js';

const results = (settings: unknown) => ({ type: 'results', streams: [], partial: false, reason: null, settings });

describe('settings in results', () => {
  it('are sent only to a peer that announced it takes them, and this build announces it', () => {
    const read = { 'net.core.rmem_max': '212992' };
    assert.deepEqual(settingsForPartner(['stop:from-responder'], read), {});
    assert.deepEqual(settingsForPartner(undefined, read), {});
    assert.deepEqual(settingsForPartner([SETTINGS_IN_RESULTS], read), { settings: { 'net.core.rmem_max': '212992' } });
    // Not read yet when the run ended (netsh slower than the run): nothing sent, the partner says unknown.
    assert.deepEqual(settingsForPartner([SETTINGS_IN_RESULTS], null), {});
    assert.ok(CAPABILITIES.includes(SETTINGS_IN_RESULTS));
  });

  it('a results message without them still parses (an older peer)', () => {
    const m = parseMessage({ type: 'results', streams: [], partial: false, reason: null });
    assert.equal(m.type === 'results' && m.settings, undefined);
  });

  it('values are made printable; odd names, too many or too long are refused', () => {
    const m = parseMessage(results({ 'net.ipv4.tcp_rmem': '4096 131072 6291456', 'net.core.rmem_max': '1\u001b[2J' }));
    assert.ok(m.type === 'results');
    assert.equal(m.settings?.['net.ipv4.tcp_rmem'], '4096 131072 6291456');
    assert.ok(!m.settings?.['net.core.rmem_max']!.includes('\u001b'), JSON.stringify(m.settings));
    for (const bad of [
      { __proto__x: '1' },
      { 'no dots': '1' },
      { 'a.b': 'x'.repeat(201) },
      { 'a.b': 1 },
      Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k.k${i}`, '1'])),
    ]) {
      assert.throws(() => parseMessage(results(bad)), /LH_ERR_BAD_MESSAGE|invalid control message/, JSON.stringify(bad));
    }
  });
});
