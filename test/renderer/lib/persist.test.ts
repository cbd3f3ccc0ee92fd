/** The wizard's stored choices: a round trip keeps them, and whatever else is stored is ignored or mended, never thrown. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultChoices, loadChoices, parseChoices, saveChoices, serializeChoices, WIZARD_KEY, type KeyValueStore } from '../../../renderer/src/lib/persist.js';

function memoryStore(): KeyValueStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

describe('wizard persistence', () => {
  it('keeps every choice through a save and a load', () => {
    const c = defaultChoices();
    c.partner = '10.0.0.5:5211';
    c.partnerKind = 'iperf3';
    c.partners = [
      { address: '10.0.0.5', ticked: true },
      { address: '10.0.0.6:6000', ticked: false },
    ];
    c.link = { ...c.link, kind: 'proxy', preset: null, rtt: '600ms', rate: '2mbit', slowstart: false };
    c.form = { ...c.form, streams: '4', window: '64K', limitBy: 'bytes', bytes: '1G', direction: 'bidir', distance: '4000km' };
    c.sweepForm = {
      ...c.sweepForm,
      window: 'OS default, 64K',
      directions: ['reverse', 'bidir'],
      links: ['', 'satellite'],
      paths: ['relay'],
      order: 'sequential',
    };
    const store = memoryStore();
    assert.equal(saveChoices(store, c), true);
    assert.ok(store.map.has(WIZARD_KEY));
    assert.deepEqual(loadChoices(store), c);
  });

  it('ignores nothing stored, text that is not JSON, and another version', () => {
    assert.equal(parseChoices(null), null);
    assert.equal(parseChoices('{"schema": "longhaul.wizard/1", '), null);
    assert.equal(parseChoices('[]'), null);
    assert.equal(parseChoices('null'), null);
    assert.equal(parseChoices(JSON.stringify({ ...defaultChoices(), schema: 'longhaul.wizard/0' })), null);
    assert.equal(parseChoices(JSON.stringify(defaultChoices())), null, 'no schema: not ours');
  });

  it('mends a field of the wrong type or an unknown choice to its default, keeping the rest', () => {
    const good = defaultChoices();
    const stored = JSON.parse(serializeChoices(good)) as Record<string, unknown>;
    stored.partner = 42;
    stored.partnerKind = 'telnet';
    stored.partners = [{ address: '10.0.0.9', ticked: 'yes' }, { address: '' }, 'junk', null];
    stored.link = { kind: 'carrier-pigeon', rtt: '50ms', rate: 7, preset: 12 };
    stored.form = { streams: '8', direction: 'sideways', limitBy: 'both', window: 'x'.repeat(5000) };
    stored.sweepForm = { directions: ['up', 'reverse', 'reverse'], paths: 'relay', links: [3], order: 'random' };
    const c = parseChoices(JSON.stringify(stored));
    assert.ok(c);
    assert.equal(c.partner, '');
    assert.equal(c.partnerKind, 'longhaul');
    assert.deepEqual(c.partners, [{ address: '10.0.0.9', ticked: false }]);
    assert.deepEqual(c.link, { ...good.link, rtt: '50ms' });
    assert.deepEqual(c.form, { ...good.form, streams: '8' });
    assert.deepEqual(c.sweepForm, { ...good.sweepForm, directions: ['reverse'] });
  });

  it('goes on without storage when the browser refuses it', () => {
    const refusing: KeyValueStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    assert.equal(loadChoices(refusing), null);
    assert.equal(saveChoices(refusing, defaultChoices()), false);
  });
});
