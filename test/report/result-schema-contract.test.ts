/**
 * The saved-result schema is tied to the contract: a field it checks with a
 * type other than LonghaulResult's fails to compile (`satisfies` in
 * report/result-file.ts), and so does a field the contract does not have
 * (StrayResultFields, checked here at compile time).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StrayResultFields } from '../../electron/report/result-file.js';

type IsNever<T> = [T] extends [never] ? true : false;

describe('result schema and contract', () => {
  it('checks no field the contract does not name', () => {
    // A stray field makes StrayResultFields its name, and this line a compile error.
    const none: IsNever<StrayResultFields> = true;
    assert.equal(none, true);
  });
});
