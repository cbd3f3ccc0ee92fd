/** The Waiting screen's list of refused controllers: newest first, one line per PC, address and reason, at most 10. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REFUSED_LINES, RefusedLog } from '../../electron/app/refused-log.js';
import type { Refusal } from '../../electron/security/responder-security.js';

const fp = (n: number): string => n.toString(16).padStart(64, '0');
const refusal = (n: number, kind: Refusal['kind'] = 'not-paired', name: string | null = `pc-${n}`): Refusal => ({
  kind,
  address: `10.0.0.${n}`,
  name,
  fingerprint: fp(n),
});

describe('refused log', () => {
  it('lists newest first, folds retries into one line with a count, keeps a known name', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const log = new RefusedLog(() => now);
    log.add(refusal(1));
    now += 1000;
    log.add(refusal(2));
    now += 1000;
    const list = log.add(refusal(1, 'not-paired', null));
    assert.deepEqual(
      list.map((l) => [l.address, l.count, l.name, l.at]),
      [
        ['10.0.0.1', 2, 'pc-1', '2026-01-01T00:00:02.000Z'],
        ['10.0.0.2', 1, 'pc-2', '2026-01-01T00:00:01.000Z'],
      ],
    );
    assert.equal(list[0]!.fingerprint, '0000 0000 0000 0000', 'the short form the other PC shows');
    // Another reason from the same PC is another line.
    assert.deepEqual(
      log.add(refusal(1, 'wrong-code')).map((l) => [l.address, l.kind]),
      [
        ['10.0.0.1', 'wrong-code'],
        ['10.0.0.1', 'not-paired'],
        ['10.0.0.2', 'not-paired'],
      ],
    );
  });

  it(`keeps the last ${REFUSED_LINES}, and forgets a PC once it paired`, () => {
    const log = new RefusedLog();
    for (let n = 1; n <= 25; n++) log.add({ ...refusal(n), fingerprint: `${n.toString(16).padStart(2, '0')}${'0'.repeat(62)}` });
    const list = log.list();
    assert.equal(list.length, REFUSED_LINES);
    assert.deepEqual(
      list.map((l) => l.address),
      Array.from({ length: REFUSED_LINES }, (_, i) => `10.0.0.${25 - i}`),
    );
    assert.deepEqual(
      log.forget(`19${'0'.repeat(62)}`).map((l) => l.address),
      list.map((l) => l.address).filter((a) => a !== '10.0.0.25'),
    );
  });
});
