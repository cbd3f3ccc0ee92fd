/** The port field's message: empty, not a number, out of range each say what to type instead. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portProblem } from '../../../renderer/src/lib/port-field.js';

describe('port field', () => {
  it('accepts a port, and 0 where any free port will do', () => {
    for (const p of ['1', '5211', '65535', ' 5211 ']) assert.equal(portProblem(p, true), null, p);
    assert.equal(portProblem('0', true), null);
    assert.equal(portProblem('0', false), '0 is not a port: type a number from 1 to 65535.');
  });

  it('says what is wrong and what to type', () => {
    assert.equal(portProblem('70000', true), '70000 is not a port: type a number from 1 to 65535, or 0 for any free port.');
    assert.equal(portProblem('', true), 'Type a port: a number from 1 to 65535, or 0 for any free port.');
    assert.equal(portProblem('abc', false), '"abc" is not a port: type a number from 1 to 65535.');
    assert.equal(portProblem('-1', true), '"-1" is not a port: type a number from 1 to 65535, or 0 for any free port.');
    assert.match(portProblem('x'.repeat(500), true)!, /^"x{12}…" is not a port/, 'a pasted paragraph is not echoed whole');
  });
});
