/** The place a tab keeps across a reload: what is stored, and what is read back (checked, never thrown on). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePlace, placeOf, samePlace } from '../../../renderer/src/lib/place.js';

describe('place', () => {
  it('keeps Run with its run and Results with its result, and nothing where the screen has no id yet', () => {
    assert.deepEqual(placeOf('run', 'abcdef0123456789', null), { screen: 'run', runId: 'abcdef0123456789' });
    assert.equal(placeOf('run', null, null), null, 'before the host named the run');
    assert.deepEqual(placeOf('results', 'x', '00ff00ff00ff00ff'), { screen: 'results', resultId: '00ff00ff00ff00ff' });
    assert.equal(placeOf('results', null, null), null, 'a group run has no single result');
    assert.deepEqual(placeOf('test', null, null), { screen: 'test' });
    assert.equal(placeOf('sweep', null, null), null);
  });

  it('reads back what it wrote, and nothing else', () => {
    for (const p of [{ screen: 'run', runId: 'r1' }, { screen: 'results', resultId: 'abc' }, { screen: 'waiting' }] as const)
      assert.deepEqual(parsePlace(JSON.stringify(p)), p);
    for (const bad of [null, '', '{', 'null', '[]', '{"screen":"run"}', '{"screen":"results","resultId":"../x"}', '{"screen":"ramp"}', '{"screen":"nowhere"}'])
      assert.equal(parsePlace(bad), null, String(bad));
    assert.ok(samePlace({ screen: 'test' }, { screen: 'test' }));
    assert.ok(!samePlace({ screen: 'test' }, null));
  });
});
