/** The Sweep form: lists of values become dimensions, one value goes into the base, bad items are named. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SWEEP_LIMITS } from '../../../electron/contract/sweep-app.js';
import { expandPlan } from '../../../electron/contract/sweep-plan.js';
import { runParamsSchema } from '../../../electron/protocol/run-params.js';
import { MAX_MSS_BYTES, MIN_MSS_BYTES } from '../../../electron/contract/limits.js';
import { parseRequest } from '../../../electron/app/request-schemas.js';
import { DEFAULT_SWEEP_FORM, parseList, validateSweepForm, type SweepForm } from '../../../renderer/src/lib/sweep-form.js';
import { LIMITS } from '../../../renderer/src/lib/test-form.js';
import { parseSize } from '../../../electron/contract/units.js';

const form = (over: Partial<SweepForm> = {}): SweepForm => ({ ...DEFAULT_SWEEP_FORM, ...over });
const loopback = { kind: 'loopback' } as const;

describe('sweep form', () => {
  it('turns the defaults into a one-cell plan the host accepts, 3 repeats, shuffled', () => {
    const { plan, errors } = validateSweepForm(form(), loopback, 42);
    assert.deepEqual(errors, {});
    assert.ok(plan);
    assert.deepEqual(plan.dimensions, []);
    assert.equal(plan.repeat, 3);
    assert.equal(plan.order, 'shuffled');
    assert.equal(plan.seed, 42);
    assert.equal(runParamsSchema.safeParse(plan.base).success, true);
    assert.equal('mssBytes' in plan.base, false, 'an unset MSS is absent, as a single run sends it');
    assert.deepEqual(parseRequest('sweepStart', { plan }), { plan });
  });

  it('sweeps window (with OS default) × streams, base from the first values', () => {
    const { plan } = validateSweepForm(form({ window: 'OS default, 64K, 1M', streams: '1, 4', repeat: '2', seconds: '1' }), loopback, 1);
    assert.deepEqual(plan?.dimensions, [
      { name: 'windowBytes', values: [null, 65_536, 1_048_576] },
      { name: 'streams', values: [1, 4] },
    ]);
    assert.equal(expandPlan(plan!).length, 6);
    assert.equal(plan!.base.seconds, 1);
  });

  it('keeps a single non-default link or relay path as a one-value dimension (base cannot hold them)', () => {
    const { plan } = validateSweepForm(form({ links: ['satellite'], paths: ['relay'] }), loopback, 1);
    assert.deepEqual(plan?.dimensions, [
      { name: 'link', values: ['satellite'] },
      { name: 'path', values: ['relay'] },
    ]);
  });

  it('drops link presets for a partner (the emulator is for sweeps on this PC)', () => {
    const { plan } = validateSweepForm(form({ links: ['', 'satellite'] }), { kind: 'peer', host: '192.0.2.7', port: 5211 }, 1);
    assert.deepEqual(plan?.dimensions, []);
    assert.deepEqual(parseRequest('sweepStart', { plan }).plan.target, { kind: 'peer', host: '192.0.2.7', port: 5211 });
  });

  it('names each bad field, and gives no plan', () => {
    const { plan, errors } = validateSweepForm(
      form({ window: '64K, huge', buffer: '17M', streams: '0', mss: '40', directions: [], seconds: '0.05', repeat: '0', pause: 'soon' }),
      loopback,
      1,
    );
    assert.equal(plan, null);
    assert.deepEqual(Object.keys(errors).sort(), ['buffer', 'directions', 'mss', 'pause', 'repeat', 'seconds', 'streams', 'window']);
    assert.match(errors.window!, /^huge: /);
    assert.match(errors.mss!, /between 88 and 65535/);
  });

  it('refuses duplicates, empty lists and too many values', () => {
    assert.deepEqual(
      parseList('64K, 65536', (s) => parseSize(s)),
      { ok: false, error: '65536 is listed twice' },
    );
    assert.deepEqual(
      parseList(' , ', (s) => parseSize(s)),
      { ok: false, error: 'at least one value' },
    );
    const many = Array.from({ length: SWEEP_LIMITS.maxValues + 1 }, (_, i) => String(i + 1)).join(',');
    assert.match(validateSweepForm(form({ streams: many }), loopback, 1).errors.streams!, new RegExp(`at most ${SWEEP_LIMITS.maxValues} values`));
  });

  it('refuses more cells than the limit, saying how many, under the longest list', () => {
    const list = (n: number, unit = '') => Array.from({ length: n }, (_, i) => `${i + 1}${unit}`).join(',');
    const { plan, errors } = validateSweepForm(form({ window: list(20, 'K'), streams: list(51) }), loopback, 1);
    assert.equal(plan, null);
    assert.deepEqual(Object.keys(errors), ['streams']);
    assert.match(errors.streams!, /1020 cells \(the values of every setting multiplied\): at most 1000/);
  });

  it("uses the engine's MSS limits", () => {
    assert.equal(LIMITS.minMssBytes, MIN_MSS_BYTES);
    assert.equal(LIMITS.maxMssBytes, MAX_MSS_BYTES);
  });

  it('is checked again by the host: a plan over the limits or with a link for a partner is refused', () => {
    const { plan } = validateSweepForm(form({ window: '64K, 128K' }), loopback, 1);
    assert.throws(() => parseRequest('sweepStart', { plan: { ...plan, repeat: SWEEP_LIMITS.maxRepeat + 1 } }), /LH_ERR_BAD_ARGUMENT|repeat/);
    assert.throws(
      () =>
        parseRequest('sweepStart', { plan: { ...plan, target: { kind: 'peer', host: 'x', port: 1 }, dimensions: [{ name: 'link', values: ['satellite'] }] } }),
      /link presets are for sweeps on this PC/,
    );
    assert.throws(() => parseRequest('sweepStart', { plan: { ...plan, dimensions: [{ name: 'link', values: ['nowhere'] }] } }), /not a link preset/);
    assert.throws(() => parseRequest('sweepGet', { id: '../../etc' }), /not a sweep id/);
  });
});
