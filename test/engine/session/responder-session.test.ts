/**
 * The responder's run state by state, with a fake control channel and a fake data plane
 * (test/helpers/fake-session.ts): no socket, no worker. Every state is reached the way a run
 * reaches it; in each, every message type, the controller vanishing, a read timeout and a stop
 * are tried; the two orders of "stop" and "own streams over"; data connections with a wrong
 * cookie, a duplicate id, or on the wrong port; a limit of this responder. The state tables
 * (responder-state.ts) are checked against the protocol's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import { ResponderSession } from '../../../electron/engine/session/responder-session.js';
import { DEFAULT_RESPONDER_LIMITS, type ResponderLimits } from '../../../electron/engine/session/responder-limits.js';
import { NO_LISTENER, type RunListener } from '../../../electron/engine/session/responder-listener.js';
import { RESPONDER_MOVES, RESPONDER_PROTOCOL, RESPONDER_TAKES, type ResponderAt } from '../../../electron/engine/session/responder-state.js';
import { CAPABILITIES, STOP_FROM_RESPONDER } from '../../../electron/engine/session/run-common.js';
import { DEFAULT_PARAMS } from '../../../electron/protocol/run-params.js';
import { encodeDataHeader } from '../../../electron/protocol/data-header.js';
import { PROTOCOL_VERSION, type MessageType } from '../../../electron/protocol/messages.js';
import { SESSION_ACCEPTS, SESSION_NEXT, type SessionState } from '../../../electron/protocol/session-state.js';
import type { LonghaulError } from '../../../electron/util/errors.js';
import { COOKIE, FakeChannel, FakePlane, incoming, messageOf, settle, streamEnd } from '../../helpers/fake-session.js';

const ALL: MessageType[] = ['hello', 'params', 'start', 'sample', 'udp-end', 'stop', 'results', 'params-ok', 'streams-ready', 'started', 'done'];
const TCP_WALK: ResponderAt[] = ['hello', 'params', 'streams', 'start', 'running', 'drained', 'reporting', 'settled'];

interface Rig {
  session: ResponderSession;
  channel: FakeChannel;
  plane: () => FakePlane;
  ended: Promise<{ result: LonghaulResult | null; err: LonghaulError | null }>;
  rejected: string[];
  step: () => Promise<void>;
}

function rig(opts: { ownPort?: number | null; limits?: Partial<ResponderLimits>; capabilities?: string[] } = {}): Rig {
  const channel = new FakeChannel('responder');
  let plane: FakePlane | null = null;
  const listener: RunListener = { ...NO_LISTENER, ownPort: opts.ownPort ?? null };
  const session = new ResponderSession(channel, {
    limits: { ...DEFAULT_RESPONDER_LIMITS, ...opts.limits },
    deps: { plane: () => (plane = new FakePlane()), listener: () => listener },
  });
  const rejected: string[] = [];
  session.on('rejected', (_peer, reason) => rejected.push(reason));
  const ended = new Promise<{ result: LonghaulResult | null; err: LonghaulError | null }>((resolve) =>
    session.once('end', (result, err) => resolve({ result, err })),
  );
  const the = (): FakePlane => {
    assert.ok(plane, 'the plane exists from params on');
    return plane;
  };
  const params = { ...DEFAULT_PARAMS, seconds: 10, intervalSeconds: 1 };
  const steps: Partial<Record<ResponderAt, () => Promise<void> | void>> = {
    hello: () =>
      channel.deliver({ type: 'hello', protocol: PROTOCOL_VERSION, software: 'fake', hostname: 'near-pc', capabilities: opts.capabilities ?? CAPABILITIES }),
    params: () => channel.deliver({ type: 'params', cookie: COOKIE, params }),
    streams: () => session.acceptData(incoming(encodeDataHeader(COOKIE, 0))),
    start: () => channel.deliver({ type: 'start' }),
    running: () => the().end('receive'),
    drained: () => channel.deliver({ type: 'stop', reason: 'complete', message: null }),
    reporting: () => channel.deliver({ type: 'results', streams: [streamEnd(0, 'send', 1_000_000)], partial: false, reason: null }),
  };
  return {
    session,
    channel,
    plane: the,
    ended,
    rejected,
    step: async () => {
      const step = steps[session.at];
      assert.ok(step, `no step from ${session.at}`);
      await step();
      await settle();
    },
  };
}

async function reach(at: ResponderAt, opts: Parameters<typeof rig>[0] = {}): Promise<Rig> {
  const r = rig(opts);
  for (let i = 0; r.session.at !== at && i < 10; i++) await r.step();
  assert.equal(r.session.at, at);
  return r;
}

async function endOf(r: Rig): Promise<{ result: LonghaulResult | null; err: LonghaulError | null }> {
  return Promise.race([r.ended, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no end within 5 s')), 5000))]);
}

describe('responder states: the tables agree with the protocol', () => {
  const states = Object.keys(RESPONDER_MOVES) as ResponderAt[];
  it('takes, per protocol state, exactly what the protocol lets the responder take', () => {
    for (const p of Object.keys(SESSION_ACCEPTS.responder) as SessionState[]) {
      const mine = new Set(states.filter((a) => RESPONDER_PROTOCOL[a] === p).flatMap((a) => RESPONDER_TAKES[a]));
      assert.deepEqual([...mine].sort(), [...SESSION_ACCEPTS.responder[p]].sort(), `protocol state ${p}`);
    }
  });

  it('moves only where the protocol moves (or ends the session)', () => {
    for (const [from, tos] of Object.entries(RESPONDER_MOVES) as [ResponderAt, ResponderAt[]][]) {
      for (const to of tos) {
        const a = RESPONDER_PROTOCOL[from];
        const b = RESPONDER_PROTOCOL[to];
        if (a === null || b === null || a === b) continue;
        assert.ok(SESSION_NEXT[a].includes(b), `${from} -> ${to} is ${a} -> ${b}`);
      }
    }
  });
});

describe('responder states: a run, state by state', () => {
  it("TCP: walks hello → settled, own streams over before the stop, with the protocol's messages in order", async () => {
    const r = rig();
    const seen: ResponderAt[] = [r.session.at];
    while (r.session.at !== 'settled') {
      await r.step();
      seen.push(r.session.at);
    }
    assert.deepEqual(seen, TCP_WALK);
    assert.deepEqual(r.channel.types(), ['hello', 'params-ok', 'streams-ready', 'started', 'results', 'done']);
    assert.deepEqual(r.plane().taken, [0]);
    const { result, err } = await endOf(r);
    assert.equal(err, null);
    assert.equal(result?.partial, false, JSON.stringify(result?.errors));
    assert.equal(result?.controller.hostname, 'near-pc');
    assert.ok(r.plane().destroyed);
  });

  it('the stop before its own streams are over: running → stopped → reporting', async () => {
    const r = await reach('running');
    r.channel.deliver({ type: 'stop', reason: 'complete', message: null });
    assert.equal(r.session.at, 'stopped');
    assert.equal(r.channel.timeouts.get('results'), 0, 'no read timeout while its own streams drain');
    assert.deepEqual(r.plane().stops.length, 1);
    assert.ok(!r.channel.types().includes('results'));
    r.plane().end('receive');
    assert.equal(r.session.at, 'reporting');
    assert.equal(r.channel.lastOf('results')?.partial, false);
  });

  it('UDP: binds, says its ports, and is ready once its senders heard their receivers', async () => {
    const r = rig();
    await r.step(); // hello
    const udp = { ...DEFAULT_PARAMS, seconds: 10, intervalSeconds: 1, protocol: 'udp' as const, bufferBytes: 1400, bitrateBitsPerSec: 1e6 };
    r.channel.deliver({ type: 'params', cookie: COOKIE, params: udp });
    assert.equal(r.session.at, 'binding', 'binding its sockets, the channel still in params');
    assert.equal(r.channel.state, 'params');
    await settle();
    assert.equal(r.session.at, 'streams');
    assert.deepEqual(r.channel.lastOf('params-ok')?.udpPorts, [[0, 40_000]]);
    assert.ok(!r.channel.types().includes('streams-ready'));
    r.plane().hearUdp();
    await settle();
    assert.equal(r.session.at, 'start');
  });
});

describe('responder states: every state × every message', () => {
  for (const at of TCP_WALK.filter((a) => a !== 'settled')) {
    it(`in ${at}: takes ${RESPONDER_TAKES[at].join(', ') || 'nothing'}; anything else ends the session as unexpected`, async () => {
      for (const type of ALL) {
        const r = await reach(at);
        r.channel.deliver(messageOf(type, 'send'));
        await settle();
        if (RESPONDER_TAKES[at].includes(type)) {
          assert.ok(!r.channel.types().includes('error'), `${type} in ${at}: no error sent`);
          assert.notEqual(r.session.at, 'collecting', `${type} in ${at} is taken`);
        } else {
          if (r.session.at === 'collecting') r.plane().end('receive');
          const { err } = await endOf(r);
          assert.equal(err?.code, 'LH_ERR_UNEXPECTED_MESSAGE', `${type} in ${at}`);
        }
      }
    });
  }
});

describe('responder states: faults in every state', () => {
  for (const at of TCP_WALK.filter((a) => a !== 'settled')) {
    for (const fault of ['gone', 'timeout'] as const) {
      it(`${at}: the controller ${fault === 'gone' ? 'vanishes' : 'says nothing until the read timeout'}`, async () => {
        const r = await reach(at);
        r.channel[fault]();
        await settle();
        if (at === 'running') {
          // Data was flowing: the workers' ends are waited for (bounded), then the session ends.
          assert.equal(r.session.at, 'collecting');
          r.plane().end('receive', 7_000);
        }
        const { result, err } = await endOf(r);
        assert.equal(r.session.at, 'settled');
        assert.equal(err?.code, fault === 'gone' ? 'LH_ERR_PEER_GONE' : 'LH_ERR_TIMEOUT');
        const started = ['running', 'drained', 'reporting'].includes(at);
        assert.equal(result !== null, started, 'a result exists once the data plane started');
        if (result) {
          assert.equal(result.partial, true);
          assert.equal(result.errors.at(-1)?.code, err?.code);
        }
        if (at === 'running') assert.equal(result?.streams[0]?.receive?.bytes, 7_000, "this side's own bytes kept");
        if (at !== 'hello' && at !== 'params') assert.ok(r.plane().destroyed);
      });
    }
  }

  it('streams: a stop before the data connections are all in ends the session, nothing ran (LH_ERR_STOPPED, named)', async () => {
    const r = await reach('streams');
    r.channel.deliver({ type: 'stop', reason: 'user', message: null });
    const { result, err } = await endOf(r);
    assert.equal(result, null);
    assert.equal(err?.code, 'LH_ERR_STOPPED');
    assert.match(err?.message ?? '', /the controller near-pc \(127\.0\.0\.2\) stopped the run before it started/);
  });

  it('start: a stop before the start starts and stops the plane, so what moved is reported', async () => {
    const r = await reach('start');
    r.channel.deliver({ type: 'stop', reason: 'user', message: null });
    assert.equal(r.session.at, 'stopped');
    assert.ok(r.plane().startNs !== null);
    r.plane().end('receive', 0);
    assert.equal(r.session.at, 'reporting');
    assert.equal(r.channel.lastOf('results')?.reason, 'stopped by the user');
  });

  it('running: a stop after an error names the controller in the reason sent back', async () => {
    const r = await reach('running');
    r.channel.deliver({ type: 'stop', reason: 'error', message: 'disk full', cut: true });
    assert.equal(r.plane().cuts, 1, 'a cut drops what is in flight');
    r.plane().end('receive');
    assert.equal(r.channel.lastOf('results')?.reason, 'stopped by the controller near-pc (127.0.0.2): disk full');
  });

  it('a controller of another protocol version is refused at hello, with both versions named', async () => {
    const r = rig();
    r.channel.deliver({ type: 'hello', protocol: PROTOCOL_VERSION + 1, software: 'x', hostname: 'x', capabilities: [] });
    const { err } = await endOf(r);
    assert.equal(err?.code, 'LH_ERR_PROTOCOL_VERSION');
    assert.match(
      err?.message ?? '',
      new RegExp(`the controller x \\(127\\.0\\.0\\.2\\) speaks protocol ${PROTOCOL_VERSION + 1}; this responder speaks ${PROTOCOL_VERSION}`),
    );
  });

  it('params over its limits are refused (LH_ERR_PARAMS_REJECTED), no plane made', async () => {
    const r = await reach('params', { limits: { maxSeconds: 5 } });
    r.channel.deliver(messageOf('params'));
    const { err } = await endOf(r);
    assert.equal(err?.code, 'LH_ERR_PARAMS_REJECTED');
    assert.throws(() => r.plane());
  });
});

describe('responder states: data connections', () => {
  it('refuses a wrong cookie, a stream id not in the plan, and a duplicate; takes the right one once', async () => {
    const r = await reach('streams');
    const wrong = incoming(encodeDataHeader('ff'.repeat(16), 0));
    await r.session.acceptData(wrong);
    const unknownId = incoming(encodeDataHeader(COOKIE, 9));
    await r.session.acceptData(unknownId);
    assert.ok(wrong.refused && unknownId.refused);
    assert.equal(r.session.at, 'streams');
    const right = incoming(encodeDataHeader(COOKIE, 0));
    await r.session.acceptData(right);
    assert.ok(!right.refused);
    assert.equal(r.session.at, 'start');
    const late = incoming(encodeDataHeader(COOKIE, 0));
    await r.session.acceptData(late);
    assert.ok(late.refused, 'no data connection once the streams are ready');
    assert.deepEqual(r.plane().taken, [0]);
  });

  it('a run with its own data listener refuses data connections on the shared port, and says why', async () => {
    const r = await reach('streams', { ownPort: 40_123 });
    assert.equal(r.channel.lastOf('params-ok')?.dataPort, 40_123);
    const c = incoming(encodeDataHeader(COOKIE, 0));
    await r.session.acceptData(c, true);
    assert.ok(c.refused);
    assert.match(r.rejected[0] ?? '', /this run takes them on port 40123/);
    const own = incoming(encodeDataHeader(COOKIE, 0));
    await r.session.acceptData(own, false);
    assert.ok(!own.refused);
    assert.equal(r.session.at, 'start');
  });
});

describe('responder states: its own limits', () => {
  it('past --max-bytes it asks the controller to stop, cuts its streams, and reports the run partial', async () => {
    const r = await reach('running', { limits: { maxBytes: 1_000 } });
    r.plane().emit('sample', { index: 1, t: 1, final: false, streams: [[0, 5_000, 0]] });
    const stop = r.channel.lastOf('stop');
    assert.equal(stop?.code, 'LH_ERR_RESPONDER_LIMIT');
    assert.equal(r.plane().cuts, 1);
    assert.match(r.rejected[0] ?? '', /past its limit/);
    r.channel.deliver({ type: 'stop', reason: 'error', message: 'answer' });
    r.plane().end('receive', 5_000);
    assert.match(r.channel.lastOf('results')?.reason ?? '', /past its limit/, "the limit is the reason, not the controller's answer");
  });

  it('a controller that cannot take a stop from its responder gets the limit as an error instead', async () => {
    const r = await reach('running', { limits: { maxBytes: 1_000 }, capabilities: CAPABILITIES.filter((c) => c !== STOP_FROM_RESPONDER) });
    r.plane().emit('sample', { index: 1, t: 1, final: false, streams: [[0, 5_000, 0]] });
    assert.equal(r.channel.lastOf('error')?.code, 'LH_ERR_RESPONDER_LIMIT');
    r.plane().end('receive');
    const { err } = await endOf(r);
    assert.equal(err?.code, 'LH_ERR_RESPONDER_LIMIT');
  });
});
