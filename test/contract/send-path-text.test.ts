import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndView, LonghaulResult, UnavailableField } from '../../electron/contract/result.js';
import { ZERO_COPY_FIELD } from '../../electron/contract/send-path.js';
import { zeroCopyLine } from '../../electron/contract/send-path-text.js';
import { makeResult } from '../helpers/result-fixtures.js';

/** A result with one stream per entry of `paths`, sent by `side`, and these unavailable entries. */
function withPaths(
  paths: (EndView['sendPath'] | 'absent')[],
  opts: { zeroCopy?: true; side?: 'controller' | 'responder'; unavailable?: UnavailableField[] } = {},
): LonghaulResult {
  const side = opts.side ?? 'controller';
  const r = makeResult({ streams: paths.map(() => ({ bytes: 1e6, completions: 8, seconds: 1, sender: side })) });
  r.streams.forEach((s, i) => {
    const p = paths[i];
    if (s.send && p !== 'absent' && p !== undefined) s.send.sendPath = p;
  });
  if (opts.zeroCopy) r.params.zeroCopy = true;
  r.unavailable = opts.unavailable ?? [];
  return r;
}

describe('send-path: the -Z line rendered from the send views', () => {
  it('-Z honoured on every stream: one clause per side, plural by count', () => {
    assert.equal(
      zeroCopyLine(withPaths(['sendfile', 'sendfile', 'sendfile', 'sendfile'], { zeroCopy: true })),
      'Zero-copy sender (-Z): controller sendfile(2) on all 4 streams',
    );
    assert.equal(zeroCopyLine(withPaths(['sendfile'], { zeroCopy: true, side: 'responder' })), 'Zero-copy sender (-Z): responder sendfile(2) on its 1 stream');
    assert.equal(
      zeroCopyLine(withPaths(['sendfile'], { zeroCopy: true }), 'app'),
      'Zero-copy sender: controller sendfile(2) on its 1 stream',
      'the app names no flag',
    );
  });

  it('-Z not honoured: the count of each path and the side’s reason from unavailable', () => {
    const reason = '-Z on Windows: TransmitFile is not built yet; copied with send()';
    const r = withPaths(['copy', 'copy'], { zeroCopy: true, side: 'responder', unavailable: [{ side: 'responder', field: ZERO_COPY_FIELD, reason }] });
    assert.equal(zeroCopyLine(r), `Zero-copy sender (-Z): responder copied on 2 of 2 (${reason})`);
  });

  it('an end that did not say is counted unknown, never as a copy', () => {
    assert.equal(zeroCopyLine(withPaths(['sendfile', 'absent'], { zeroCopy: true })), 'Zero-copy sender (-Z): controller sendfile(2) on 1, unknown on 1 of 2');
  });

  it('no -Z and every end copied (or did not say): no line', () => {
    assert.equal(zeroCopyLine(withPaths(['copy', 'copy'])), null);
    assert.equal(zeroCopyLine(withPaths(['absent'])), null);
  });

  it('sendfile without -Z in the params (a partner that chose it) is still said', () => {
    assert.equal(zeroCopyLine(withPaths(['sendfile'])), 'Zero-copy sender (-Z): controller sendfile(2) on its 1 stream');
  });
});
