/** The bypass rule: seconds around the link emulator, counted the same on the screen and in the reports. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bypassCaveat, bypassedSeconds, type BypassedRun } from '../../electron/contract/bypass-text.js';
import type { LinkInfo } from '../../electron/contract/link-info.js';

/** A run of `seconds` with intervals up to `lastT` and these bypass switches (null: no link emulator). */
function run(toggles: LinkInfo['bypassToggles'] | null, seconds: number | null, lastT = 0): BypassedRun {
  return {
    link: toggles === null ? undefined : ({ bypassToggles: toggles } as LinkInfo),
    total: { seconds } as BypassedRun['total'],
    intervals: [{ t: lastT }] as BypassedRun['intervals'],
  };
}

describe('bypassedSeconds', () => {
  it('a direct run has no bypass figure, and no caveat', () => {
    assert.equal(bypassedSeconds(run(null, 10)), null);
    assert.equal(bypassCaveat(run(null, 10)), null);
  });

  it('on and off twice: the two spans add up', () => {
    const r = run(
      [
        { t: 1, bypass: true },
        { t: 2.5, bypass: false },
        { t: 4, bypass: true },
        { t: 5, bypass: false },
      ],
      10,
    );
    assert.equal(bypassedSeconds(r), 2.5);
    assert.match(bypassCaveat(r) ?? '', /^The link bypass was on for 2\.5 s of this run: the totals and the verdict above mix/);
  });

  it('still on at the end: counted to the later of the total and the last interval (the total is unknown in some partial runs)', () => {
    assert.equal(bypassedSeconds(run([{ t: 3, bypass: true }], 10, 8)), 7);
    assert.equal(bypassedSeconds(run([{ t: 3, bypass: true }], null, 8)), 5);
  });

  it('a repeated "on" does not restart the span; never switched on: 0 s and no caveat', () => {
    const twice = run(
      [
        { t: 1, bypass: true },
        { t: 2, bypass: true },
        { t: 3, bypass: false },
      ],
      10,
    );
    assert.equal(bypassedSeconds(twice), 2);
    const never = run([], 10);
    assert.equal(bypassedSeconds(never), 0);
    assert.equal(bypassCaveat(never), null);
  });
});
