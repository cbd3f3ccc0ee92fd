/**
 * Data connections carry the run's cookie in clear (an eavesdropper can read
 * it): a guessed cookie, a replay of a real stream's header (during and after
 * the run) and a data connection from another address are all dropped.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import type { ResponderSession } from '../../electron/engine/session/responder-session.js';
import { encodeDataHeader } from '../../electron/protocol/data-header.js';
import { encodeFrame, FrameParser } from '../../electron/protocol/framing.js';
import { PROTOCOL_VERSION } from '../../electron/protocol/messages.js';
import { readUntilClose, startResponder, tlsConnect, within } from '../helpers/net.js';

function connectFrom(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Send a data header; resolve with whether the responder closed the connection within `ms` and what it sent. */
async function tryData(port: number, header: Buffer, from = '127.0.0.1', ms = 3000): Promise<{ closed: boolean; bytes: number }> {
  const s = await connectFrom(port, from);
  const done = readUntilClose(s, ms);
  s.write(header);
  const { closed, data } = await done;
  s.destroy();
  return { closed, bytes: data.length };
}

describe('data connection cookies', { timeout: 60_000 }, () => {
  it('a guessed cookie, a replayed header and a foreign address are dropped; the run is untouched', async () => {
    const { responder, port, security } = await startResponder();
    const rejected: string[] = [];
    responder.on('rejected', (_p, why) => rejected.push(why));
    let session: ResponderSession | null = null;
    responder.once('session', (s) => (session = s));
    try {
      const run = startRun({
        host: '127.0.0.1',
        port,
        security,
        params: { ...DEFAULT_PARAMS, streams: 2, seconds: 2, intervalSeconds: 0.5, direction: 'reverse' },
      });
      await new Promise<void>((resolve) => run.on('phase', (p) => p === 'running' && resolve()));
      // What an eavesdropper on the plain data connections reads: the real cookie (read here from the session).
      const cookie = (session as unknown as { state: { run: { cookie: string } } }).state.run.cookie;
      assert.match(cookie, /^[0-9a-f]{32}$/);
      const guessed = await tryData(port, encodeDataHeader(randomBytes(16).toString('hex'), 0));
      const replayed = await tryData(port, encodeDataHeader(cookie, 0));
      const foreign = await tryData(port, encodeDataHeader(cookie, 1), '127.0.0.2');
      for (const [what, r] of [
        ['guessed', guessed],
        ['replayed', replayed],
        ['foreign', foreign],
      ] as const) {
        assert.equal(r.closed, true, `${what}: closed`);
        assert.equal(r.bytes, 0, `${what}: the responder sent it nothing (no reflection)`);
      }
      const result = await within(run.result, 20_000, 'run');
      assert.equal(result.partial, false, result.partialReason ?? '');
      assert.equal(result.streams.length, 2);
      // After the run: the old cookie opens nothing.
      const late = await tryData(port, encodeDataHeader(cookie, 0));
      assert.equal(late.closed, true);
      assert.equal(late.bytes, 0);
      assert.ok(rejected.filter((w) => /data connection without a run/.test(w)).length >= 3, rejected.join('; '));
    } finally {
      await responder.close();
    }
  });

  it('while a run waits for its streams: the right cookie from another address is refused (no reflection), a guessed one dropped', async () => {
    const { responder, port, security } = await startResponder();
    const rejected: string[] = [];
    responder.on('rejected', (_p, why) => rejected.push(why));
    // A paired controller that agrees on a run and then opens no stream: the responder waits in "streams".
    const control = await tlsConnect(port, security);
    const cookie = randomBytes(16).toString('hex');
    const parser = new FrameParser();
    const paramsOk = new Promise<void>((resolve) =>
      control.on('data', (c: Buffer) => {
        if ((parser.push(c) as { type: string }[]).some((m) => m.type === 'params-ok')) resolve();
      }),
    );
    control.write(encodeFrame({ type: 'hello', protocol: PROTOCOL_VERSION, software: 'test', hostname: 'test', capabilities: [] }));
    control.write(encodeFrame({ type: 'params', cookie, params: { ...DEFAULT_PARAMS, streams: 1, seconds: 1, direction: 'reverse' } }));
    try {
      await within(paramsOk, 5000, 'params-ok');
      const foreign = await tryData(port, encodeDataHeader(cookie, 0), '127.0.0.3');
      assert.equal(foreign.closed, true);
      assert.equal(foreign.bytes, 0, 'nothing was sent to the foreign address');
      assert.ok(
        rejected.some((w) => /from 127\.0\.0\.3, not from the paired controller/.test(w)),
        rejected.join('; '),
      );
      const guessed = await tryData(port, encodeDataHeader(randomBytes(16).toString('hex'), 0));
      assert.equal(guessed.closed, true);
      assert.equal(guessed.bytes, 0);
    } finally {
      control.destroy();
      await responder.close();
    }
  });
});
