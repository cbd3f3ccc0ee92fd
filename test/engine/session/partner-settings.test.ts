/**
 * This end's TCP settings go with its `results` only to a partner that announced it takes them,
 * and only once they were read: an older peer's strict schema would refuse an unknown field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LocalSettings } from '../../../electron/analysis/advice/settings-keys.js';
import { SETTINGS_IN_RESULTS, settingsForPartner } from '../../../electron/engine/session/partner-settings.js';

const settings: LocalSettings = { 'net.ipv4.tcp_rmem': '4096 131072 6291456', 'net.ipv4.tcp_congestion_control': 'cubic' };

describe('settingsForPartner', () => {
  it('sends the settings to a partner that announced it takes them', () => {
    assert.deepEqual(settingsForPartner(['protocol:udp', SETTINGS_IN_RESULTS], settings), { settings });
    assert.equal(SETTINGS_IN_RESULTS, 'settings:in-results', 'the wire name both versions agree on');
  });

  it('sends nothing to a partner that did not announce it, nor before they were read', () => {
    assert.deepEqual(settingsForPartner(['protocol:udp'], settings), {});
    assert.deepEqual(settingsForPartner([], settings), {});
    assert.deepEqual(settingsForPartner(undefined, settings), {}, 'no hello yet');
    assert.deepEqual(settingsForPartner(['settings:in-results-v2', 'Settings:In-Results'], settings), {}, 'the exact capability only');
    assert.deepEqual(settingsForPartner([SETTINGS_IN_RESULTS], null), {});
    assert.equal('settings' in settingsForPartner([SETTINGS_IN_RESULTS], null), false, 'no field at all, not settings: undefined');
  });
});
