/**
 * The stage registry validates a stage's JSON before any byte moves: a config that is not an
 * object with a string `type`, an unknown type, or a field its stage's schema refuses is an
 * LH_ERR_BAD_ARGUMENT naming where it was, the type and the field; a good one comes back with its
 * defaults filled in. A link's shape is its slowest rate and the sum of its base delays; a caveat
 * is listed once however many stages carry it; a name cannot be registered twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { describeStageConfig, linkShape, parseStageConfig, registerStage, stageCaveats, stageSummaries } from '../../electron/proxy/registry.js';
import '../../electron/proxy/stages/index.js';

const badArgument = (message: RegExp) => ({ code: 'LH_ERR_BAD_ARGUMENT', message });

describe('stage registry', () => {
  it('refuses what is not a stage, naming where it was and the known types', () => {
    assert.throws(() => parseStageConfig(null, 'up[0]'), badArgument(/^up\[0\]: expected an object with a "type" \(one of .*delay/));
    assert.throws(() => parseStageConfig({ type: 7 }), badArgument(/^stage: expected an object/));
    assert.throws(() => parseStageConfig({ type: 'teleport' }, 'down[2]'), badArgument(/^down\[2\]: unknown stage type "teleport" \(known: .*rate/));
  });

  it("refuses a field its stage's schema refuses, naming the type and the field", () => {
    assert.throws(() => parseStageConfig({ type: 'delay', delayMs: -1 }, 'up[1]'), badArgument(/^up\[1\] \(delay\)\.delayMs: delayMs cannot be negative/));
    assert.throws(() => parseStageConfig({ type: 'window', windowBytes: 1024, extra: 1 }), badArgument(/^stage \(window\)/));
  });

  it('gives a good config back with its defaults', () => {
    assert.deepEqual(parseStageConfig({ type: 'delay', delayMs: 40 }), { type: 'delay', delayMs: 40, jitterMs: 0, queueBytes: 32 * 1024 * 1024 });
  });

  it("a link's shape: the slowest rate, the summed base delays; none without such stages", () => {
    const shape = linkShape([
      parseStageConfig({ type: 'rate', rateBitsPerSec: 4e6 }),
      parseStageConfig({ type: 'delay', delayMs: 30 }),
      parseStageConfig({ type: 'rate', rateBitsPerSec: 20e6 }),
      parseStageConfig({ type: 'delay', delayMs: 12.5 }),
      parseStageConfig({ type: 'window', windowBytes: 65_536 }),
    ]);
    assert.deepEqual(shape, { rateBitsPerSec: 4e6, oneWayDelayMs: 42.5 });
    assert.deepEqual(linkShape([parseStageConfig({ type: 'window', windowBytes: 65_536 })]), { rateBitsPerSec: null, oneWayDelayMs: 0 });
  });

  it('lists each caveat once, and only for stages that have one', () => {
    const loss = parseStageConfig({ type: 'loss', lossRatio: 0.01 });
    assert.equal(stageCaveats([loss, loss]).length, 1);
    assert.deepEqual(stageCaveats([parseStageConfig({ type: 'delay', delayMs: 1 })]), []);
  });

  it('describes an unknown config as its JSON, a known one in its own words', () => {
    assert.equal(describeStageConfig({ type: 'teleport' }), '{"type":"teleport"}');
    assert.notEqual(describeStageConfig(parseStageConfig({ type: 'delay', delayMs: 40 })), JSON.stringify({ type: 'delay', delayMs: 40 }));
  });

  it('refuses a second registration of a name, and lists a new one after the others', () => {
    const schema = z.object({ type: z.literal('test-pass') });
    const def = {
      type: 'test-pass',
      summary: 'passes bytes',
      schema,
      describe: () => 'pass',
      create: () => ({ type: 'test-pass', kind: 'gate' as const, config: { type: 'test-pass' }, capBytes: () => Infinity }),
    };
    registerStage(def);
    assert.throws(() => registerStage(def), /"test-pass" registered twice/);
    assert.equal(stageSummaries().at(-1)?.type, 'test-pass');
    assert.deepEqual(parseStageConfig({ type: 'test-pass' }), { type: 'test-pass' });
  });
});
