/** The app's words for pairing errors: what to do in the app, never a CLI command. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appErrorWords, notPairedAdvice, notPairedYetLine } from '../../electron/contract/pairing-words.js';

describe('pairing words', () => {
  it('a refused run says what to do in the app, naming the partner', () => {
    assert.equal(
      notPairedAdvice('lab-7'),
      'This PC is not paired with lab-7: on that PC choose Wait for a partner and read the pairing code; type it on the Partner step.',
    );
    assert.match(notPairedAdvice(null), /not paired with the other PC:/);
    assert.match(notPairedAdvice('  '), /not paired with the other PC:/);
  });

  it('replaces the engine message by code where it names a CLI command, keeps it otherwise', () => {
    const cli = 'the responder at 10.0.0.5:5211 is not paired: read the pairing code that `longhaul listen` prints there, then run `longhaul pair`';
    for (const code of ['LH_ERR_NOT_PAIRED', 'LH_ERR_PAIRING_CLOSED', 'LH_ERR_REFUSED']) {
      const words = appErrorWords({ code, message: cli }, '10.0.0.5:5211');
      assert.doesNotMatch(words, /longhaul /, code);
      assert.match(words, /10\.0\.0\.5:5211/, code);
      assert.match(words, /Wait for a partner/, code);
    }
    assert.equal(
      appErrorWords({ code: 'LH_ERR_PAIRING_CODE', message: 'wrong pairing code: 4 attempt(s) left' }, 'x'),
      'wrong pairing code: 4 attempt(s) left',
    );
    assert.match(notPairedYetLine(), /^Reachable, not paired yet: type the code shown on the other PC's Waiting screen/);
  });
});
