/** What both ends of a session say alike: the hello's checks and the results message. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helloProblem, ownHello, paramsForPartner, resultsMessage } from '../../../electron/engine/session/peer-exchange.js';
import { DEFAULT_PARAMS, runParamsSchema } from '../../../electron/protocol/run-params.js';
import { SETTINGS_IN_RESULTS } from '../../../electron/engine/session/partner-settings.js';
import { UDP_CAPABILITY, ZERO_COPY_CAPABILITY } from '../../../electron/engine/session/run-common.js';
import { PROTOCOL_VERSION } from '../../../electron/protocol/messages.js';
import { streamEnd } from '../../helpers/fake-session.js';

describe('peer exchange', () => {
  const hello = ownHello();

  it("takes a partner's hello of the same version; names both versions otherwise, from either end", () => {
    assert.equal(helloProblem(hello, 'controller', true, 'the responder lab-2 (10.0.0.2:5501)'), null, 'this build tests UDP');
    const old = { ...hello, protocol: PROTOCOL_VERSION + 1 };
    assert.equal(helloProblem(old, 'controller', false, 'x')?.code, 'LH_ERR_PROTOCOL_VERSION');
    assert.match(
      helloProblem(old, 'responder', false, 'the controller lab-1 (10.0.0.1)')?.message ?? '',
      new RegExp(`^the controller lab-1 \\(10\\.0\\.0\\.1\\) speaks protocol ${PROTOCOL_VERSION + 1}; this responder speaks ${PROTOCOL_VERSION}`),
    );
  });

  it('refuses a UDP run with a partner that does not test UDP, only for UDP', () => {
    const noUdp = { ...hello, capabilities: hello.capabilities.filter((c) => c !== UDP_CAPABILITY) };
    assert.match(
      helloProblem(noUdp, 'controller', true, 'the responder lab-2 (10.0.0.2:5501)')?.message ?? '',
      /the Longhaul of the responder lab-2 \(10\.0\.0\.2:5501\) does not test UDP/,
    );
    assert.equal(helloProblem(noUdp, 'controller', false, 'x'), null);
  });

  it("results: partial with the reason so far, or a failed stream's error; settings only to a partner that takes them", () => {
    const ok = resultsMessage('responder', [streamEnd(0, 'receive', 10)], null, hello, { 'net.ipv4.tcp_rmem': '4096 131072 6291456' }, null);
    assert.equal(ok.partial, false);
    assert.equal(ok.reason, null);
    assert.ok(hello.capabilities.includes(SETTINGS_IN_RESULTS) && ok.settings, 'settings sent');
    const failed = { ...streamEnd(1, 'receive', 10), error: { code: 'LH_ERR_DATA_STREAM' as const, message: 'reset' } };
    const partial = resultsMessage('responder', [failed], null, { ...hello, capabilities: [] }, { a: 'b' }, null);
    assert.equal(partial.reason, 'stream error on the responder: reset');
    assert.equal(partial.settings, undefined);
    assert.equal(resultsMessage('controller', [failed], 'stopped by the user', hello, null, null).reason, 'stopped by the user');
  });

  it('-Z goes to a partner that announces it, and is left out for one that does not (its strict schema would refuse the run)', () => {
    const zero = { ...DEFAULT_PARAMS, zeroCopy: true as const };
    assert.ok(ownHello().capabilities.includes(ZERO_COPY_CAPABILITY));
    assert.equal(paramsForPartner(zero, hello), zero);
    const older = { ...hello, capabilities: hello.capabilities.filter((c) => c !== ZERO_COPY_CAPABILITY) };
    const sent = paramsForPartner(zero, older);
    assert.equal('zeroCopy' in sent, false);
    assert.equal(zero.zeroCopy, true, 'the run keeps -Z for its own senders and its result');
    // Why: the params schema is strict, so a key an older Longhaul does not know fails its whole run.
    assert.equal(runParamsSchema.safeParse({ ...DEFAULT_PARAMS, aKeyFromTheFuture: true }).success, false);
    assert.equal(runParamsSchema.safeParse(sent).success, true);
    assert.equal(paramsForPartner(DEFAULT_PARAMS, older), DEFAULT_PARAMS);
  });
});
