/** The Test form: sane defaults give valid params; every bad field gets its own message. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runParamsSchema } from '../../../electron/protocol/run-params.js';
import { DEFAULT_FORM, parseWindow, switchProtocol, switchRamp, validateTestForm } from '../../../renderer/src/lib/test-form.js';

describe('test form', () => {
  it('turns the defaults into parameters the engine accepts', () => {
    const r = validateTestForm(DEFAULT_FORM);
    assert.deepEqual(r.errors, {});
    assert.deepEqual(r.params, { streams: 1, bufferBytes: 131_072, windowBytes: null, bytes: null, seconds: 10, direction: 'forward', intervalSeconds: 1 });
    assert.equal(runParamsSchema.safeParse(r.params).success, true);
  });

  it('takes bytes instead of seconds, a window, a distance', () => {
    const r = validateTestForm({
      ...DEFAULT_FORM,
      limitBy: 'bytes',
      bytes: '1G',
      window: '20M',
      streams: '4',
      direction: 'bidir',
      distance: '4000km',
      interval: '0.2',
    });
    assert.equal(r.params?.bytes, 1024 ** 3);
    assert.equal(r.params?.seconds, null);
    assert.equal(r.params?.windowBytes, 20_971_520);
    assert.equal(r.distanceMeters, 4e6);
    assert.equal(runParamsSchema.safeParse(r.params).success, true);
  });

  it('names each bad field and gives no parameters', () => {
    const r = validateTestForm({ ...DEFAULT_FORM, streams: '129', window: 'big', buffer: '17M', seconds: '0', interval: '0.05', distance: '-3km' });
    assert.equal(r.params, null);
    assert.deepEqual(Object.keys(r.errors).sort(), ['buffer', 'distance', 'interval', 'seconds', 'streams', 'window']);
    assert.match(r.errors.streams!, /1 to 128/);
    assert.match(r.errors.distance!, /negative/);
  });

  it("path rate: optional, the CLI's --path-rate units and limit (contract/limits.ts)", () => {
    assert.equal(validateTestForm(DEFAULT_FORM).pathRateBitsPerSec, null);
    assert.equal(validateTestForm({ ...DEFAULT_FORM, pathRate: '4mbit' }).pathRateBitsPerSec, 4e6);
    assert.equal(validateTestForm({ ...DEFAULT_FORM, pathRate: '1g' }).pathRateBitsPerSec, 1e9);
    for (const bad of ['fast', '0', '2000g']) {
      const r = validateTestForm({ ...DEFAULT_FORM, pathRate: bad });
      assert.equal(r.params, null, bad);
      assert.ok(r.errors.pathRate, bad);
    }
  });
});

describe('test form: the zero-copy sender', () => {
  it("ticked: the run's params carry -Z (zeroCopy) and the engine accepts them; unticked or UDP: absent", () => {
    const on = validateTestForm({ ...DEFAULT_FORM, zeroCopy: true });
    assert.equal(on.params?.zeroCopy, true);
    assert.equal(runParamsSchema.safeParse(on.params).success, true);
    assert.equal('zeroCopy' in (validateTestForm(DEFAULT_FORM).params ?? {}), false);
    const udp = validateTestForm({ ...DEFAULT_FORM, protocol: 'udp', buffer: '1460', zeroCopy: true });
    assert.equal(udp.params !== null && 'zeroCopy' in udp.params, false, 'UDP has no zero-copy sender');
  });
});

describe('test form: the window and typed rates', () => {
  it('names the largest window instead of a bare "too large"', () => {
    for (const typed of ['99999999999999999999', '2G', '0']) {
      const r = parseWindow(typed);
      assert.ok(!r.ok && r.error === 'between 1 byte and 1G (1,073,741,824 bytes)', `${typed}: ${JSON.stringify(r)}`);
    }
    assert.deepEqual(parseWindow(' '), { ok: true, value: null });
    assert.deepEqual(parseWindow('1G'), { ok: true, value: 1024 ** 3 });
  });

  it("takes the path rate in the app's own notation", () => {
    assert.equal(validateTestForm({ ...DEFAULT_FORM, pathRate: '1Gbit/s' }).pathRateBitsPerSec, 1e9);
    assert.equal(validateTestForm({ ...DEFAULT_FORM, pathRate: '4 Mbit/s' }).pathRateBitsPerSec, 4e6);
  });
});

describe('test form: the UDP ramp', () => {
  const udp = switchProtocol(DEFAULT_FORM, 'udp');

  it('ticking it makes a default Duration the ramp step (3 s), and gives the threshold as a share', () => {
    const f = switchRamp(udp, true);
    assert.equal(f.seconds, '3');
    const r = validateTestForm(f);
    assert.deepEqual(r.errors, {});
    assert.equal(r.rampLossThreshold, 0.01);
    assert.equal(r.params?.seconds, 3);
    assert.equal(switchRamp({ ...f, seconds: '0.5' }, false).seconds, '0.5', 'a typed Duration stays');
    assert.equal(switchRamp(f, false).seconds, '10');
    assert.equal(validateTestForm({ ...f, rampLoss: '0.1 %' }).rampLossThreshold, 0.001);
  });

  it('names what a ramp cannot take on the field that holds it; TCP or unticked is one run', () => {
    const f = switchRamp(udp, true);
    assert.match(validateTestForm({ ...f, direction: 'bidir' }).errors.direction ?? '', /one direction's rate/);
    assert.match(validateTestForm({ ...f, limitBy: 'bytes' }).errors.bytes ?? '', /each step of a ramp is a duration/);
    assert.match(validateTestForm({ ...f, rampLoss: '60%' }).errors.rampLoss ?? '', /at most 50/);
    assert.equal(validateTestForm({ ...f, rampLoss: 'lots' }).params, null);
    assert.equal(validateTestForm({ ...f, protocol: 'tcp' }).rampLossThreshold, null);
    assert.equal(validateTestForm(udp).rampLossThreshold, null);
  });
});
