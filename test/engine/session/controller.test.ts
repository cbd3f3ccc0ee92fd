/**
 * The controller's run state by state, with a fake control channel and a fake data plane
 * (test/helpers/fake-session.ts): no socket, no worker. Every state is reached the way a run
 * reaches it; in each, every message type, the partner vanishing, a read timeout and a stop are
 * tried. The state tables (controller-state.ts) are checked against the protocol's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import { ControllerRun } from '../../../electron/engine/session/controller.js';
import { CONTROLLER_MOVES, CONTROLLER_PROTOCOL, CONTROLLER_TAKES, type ControllerAt } from '../../../electron/engine/session/controller-state.js';
import { DEFAULT_PARAMS } from '../../../electron/protocol/run-params.js';
import { CAPABILITIES } from '../../../electron/engine/session/run-common.js';
import { PROTOCOL_VERSION, type MessageType } from '../../../electron/protocol/messages.js';
import { SESSION_ACCEPTS, SESSION_NEXT, type SessionState } from '../../../electron/protocol/session-state.js';
import type { ControllerSecurity } from '../../../electron/security/controller-security.js';
import { FakeChannel, FakePlane, messageOf, settle, streamEnd } from '../../helpers/fake-session.js';

const ALL: MessageType[] = ['hello', 'params-ok', 'streams-ready', 'started', 'sample', 'udp-end', 'stop', 'results', 'done', 'params', 'start'];
/** The states a run walks through, in order, and how each is reached from the one before. */
const WALK: ControllerAt[] = ['dialing', 'hello', 'params', 'streams', 'start', 'running', 'stopping', 'reported', 'settled'];

interface Rig {
  run: ControllerRun;
  channel: FakeChannel;
  plane: () => FakePlane;
  connect: (ok?: boolean) => Promise<void>;
  /** Take the run one state further along WALK. */
  step: () => Promise<void>;
}

function rig(seconds: number | null = 10, setup: (p: FakePlane) => void = () => {}): Rig {
  const channel = new FakeChannel('controller');
  let plane: FakePlane | null = null;
  let answer!: (ok: boolean) => void;
  const dialled = new Promise<boolean>((r) => (answer = r));
  const run = new ControllerRun({
    host: '127.0.0.2',
    port: 5501,
    params: { ...DEFAULT_PARAMS, seconds, intervalSeconds: 1 },
    security: {} as ControllerSecurity, // never used: the fake connect does not dial
    deps: {
      connect: async () => {
        if (!(await dialled)) throw new Error('ECONNREFUSED');
        return channel;
      },
      plane: () => {
        plane = new FakePlane();
        setup(plane);
        return plane;
      },
    },
  });
  const the = (): FakePlane => {
    assert.ok(plane, 'the plane exists from streams on');
    return plane;
  };
  const steps: Record<ControllerAt, () => Promise<void> | void> = {
    dialing: async () => {
      answer(true);
      await settle();
    },
    hello: () => channel.deliver({ type: 'hello', protocol: PROTOCOL_VERSION, software: 'fake', hostname: 'far-pc', capabilities: CAPABILITIES }),
    params: () => channel.deliver({ type: 'params-ok' }),
    streams: async () => {
      channel.deliver({ type: 'streams-ready' });
      await settle();
    },
    start: () => channel.deliver({ type: 'started' }),
    running: () => the().end('send'),
    stopping: () => channel.deliver({ type: 'results', streams: [streamEnd(0, 'receive', 1_000_000)], partial: false, reason: null }),
    reported: () => channel.deliver({ type: 'done' }),
    collecting: () => undefined,
    settled: () => undefined,
  };
  return {
    run,
    channel,
    plane: the,
    connect: async (ok = true) => {
      answer(ok);
      await settle();
    },
    step: async () => {
      await steps[run.at]();
      await settle();
    },
  };
}

async function reach(at: ControllerAt, setup?: (p: FakePlane) => void): Promise<Rig> {
  await settle(); // the run dials in a microtask
  const r = rig(10, setup);
  await settle();
  for (let i = 0; r.run.at !== at && i < WALK.length; i++) await r.step();
  assert.equal(r.run.at, at);
  return r;
}

async function resultOf(run: ControllerRun): Promise<LonghaulResult> {
  return Promise.race([run.result, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no result within 5 s')), 5000))]);
}

describe('controller states: the tables agree with the protocol', () => {
  it('takes, per protocol state, exactly what the protocol lets the controller take', () => {
    for (const p of Object.keys(SESSION_ACCEPTS.controller) as SessionState[]) {
      const mine = new Set(WALK.filter((a) => CONTROLLER_PROTOCOL[a] === p).flatMap((a) => CONTROLLER_TAKES[a]));
      assert.deepEqual([...mine].sort(), [...SESSION_ACCEPTS.controller[p]].sort(), `protocol state ${p}`);
    }
  });

  it('moves only where the protocol moves (or leaves the channel)', () => {
    for (const [from, tos] of Object.entries(CONTROLLER_MOVES) as [ControllerAt, ControllerAt[]][]) {
      for (const to of tos) {
        const a = CONTROLLER_PROTOCOL[from];
        const b = CONTROLLER_PROTOCOL[to];
        if (a === null || b === null || a === b) continue;
        assert.ok(SESSION_NEXT[a].includes(b), `${from} -> ${to} is ${a} -> ${b}`);
      }
    }
  });
});

describe('controller states: a run, state by state', () => {
  it('walks dialing → settled with the messages of the protocol, in order, and a complete result', async () => {
    const r = await reach('dialing');
    const seen: ControllerAt[] = [r.run.at];
    while (r.run.at !== 'settled') {
      await r.step();
      seen.push(r.run.at);
    }
    assert.deepEqual(seen, WALK);
    assert.deepEqual(r.channel.types(), ['hello', 'params', 'start', 'stop', 'results']);
    assert.equal(r.channel.lastOf('stop')?.reason, 'complete');
    assert.equal(r.channel.state, 'done');
    assert.ok(r.plane().destroyed);
    const result = await resultOf(r.run);
    assert.equal(result.partial, false, JSON.stringify(result.errors));
    assert.equal(result.responder.hostname, 'far-pc');
  });

  it('sends no stop before the responder said started: one decided in start waits for it', async () => {
    const r = await reach('start');
    r.plane().end('send'); // a short run over a long link: this side is done before `started` arrives
    await settle();
    assert.equal(r.run.at, 'start');
    assert.ok(!r.channel.types().includes('stop'), 'nothing crosses the start');
    r.channel.deliver({ type: 'started' });
    assert.equal(r.run.at, 'stopping');
    assert.equal(r.channel.lastOf('stop')?.reason, 'complete');
  });

  for (const first of ['streams-ready', 'own streams'] as const) {
    it(`waits for both its own streams and the responder's streams-ready (${first} first)`, async () => {
      let open!: () => void;
      const r = await reach('params', (p) => (p.opening = new Promise<void>((resolve) => (open = resolve))));
      r.channel.deliver({ type: 'params-ok' });
      assert.equal(r.run.at, 'streams');
      if (first === 'streams-ready') r.channel.deliver({ type: 'streams-ready' });
      else open();
      await settle();
      assert.equal(r.run.at, 'streams', 'one of the two is not enough');
      if (first === 'streams-ready') open();
      else r.channel.deliver({ type: 'streams-ready' });
      await settle();
      assert.equal(r.run.at, 'start');
      assert.ok(r.plane().startNs !== null);
    });
  }

  it('a second streams-ready is a protocol fault', async () => {
    let open!: () => void;
    const r = await reach('params', (p) => (p.opening = new Promise<void>((resolve) => (open = resolve))));
    r.channel.deliver({ type: 'params-ok' });
    r.channel.deliver({ type: 'streams-ready' });
    r.channel.deliver({ type: 'streams-ready' });
    open();
    const result = await resultOf(r.run);
    assert.equal(result.errors.at(-1)?.code, 'LH_ERR_UNEXPECTED_MESSAGE');
  });
});

describe('controller states: every state × every message', () => {
  for (const at of WALK.filter((a) => a !== 'dialing' && a !== 'settled')) {
    it(`in ${at}: takes ${CONTROLLER_TAKES[at].join(', ') || 'nothing'}; anything else ends the run as unexpected`, async () => {
      for (const type of ALL) {
        const r = await reach(at);
        r.channel.deliver(messageOf(type, 'receive'));
        await settle();
        if (CONTROLLER_TAKES[at].includes(type)) {
          assert.ok(!r.channel.types().includes('error'), `${type} in ${at}: no error sent`);
          assert.notEqual(r.run.at, 'collecting', `${type} in ${at} is taken`);
        } else {
          if (r.run.at === 'collecting') r.plane().end('send');
          const result = await resultOf(r.run);
          assert.equal(result.errors.at(-1)?.code, 'LH_ERR_UNEXPECTED_MESSAGE', `${type} in ${at}`);
          assert.equal(result.partial, true);
        }
      }
    });
  }
});

describe('controller states: faults in every state', () => {
  it('dialing: a refused dial ends the run, partial, with the reason', async () => {
    await settle();
    const r = rig();
    await r.connect(false);
    const result = await resultOf(r.run);
    assert.equal(result.partial, true);
    assert.match(result.partialReason ?? '', /ECONNREFUSED/);
    assert.equal(r.run.at, 'settled');
  });

  for (const at of ['hello', 'params', 'streams', 'start', 'running', 'stopping', 'reported'] as const) {
    for (const fault of ['gone', 'timeout'] as const) {
      it(`${at}: the responder ${fault === 'gone' ? 'vanishes' : 'says nothing until the read timeout'}: partial, ${fault === 'gone' ? 'LH_ERR_PEER_GONE' : 'LH_ERR_TIMEOUT'}, what was measured kept`, async () => {
        const r = await reach(at);
        r.channel[fault]();
        await settle();
        if (at === 'start' || at === 'running') {
          // Data was flowing: this side's workers' ends are waited for (bounded), then the run settles.
          assert.equal(r.run.at, 'collecting');
          assert.ok(r.plane().stops.length > 0, 'the workers were told to stop');
          r.plane().end('send', 5_000);
        }
        const result = await resultOf(r.run);
        assert.equal(r.run.at, 'settled');
        assert.equal(result.partial, true);
        assert.equal(result.errors.at(-1)?.code, fault === 'gone' ? 'LH_ERR_PEER_GONE' : 'LH_ERR_TIMEOUT');
        if (at !== 'hello' && at !== 'params') assert.ok(r.plane().destroyed, 'the plane is released');
        if (at === 'start' || at === 'running') assert.equal(result.streams[0]?.send?.bytes, 5_000, "this side's own bytes kept");
      });
    }
  }

  for (const at of ['dialing', 'hello', 'params', 'streams'] as const) {
    it(`${at}: a stop before the start abandons the session (LH_ERR_STOPPED)`, async () => {
      const r = await reach(at);
      r.run.stop();
      if (at === 'dialing') await r.connect(true);
      const result = await resultOf(r.run);
      assert.equal(r.run.at, 'settled');
      assert.equal(result.errors.at(-1)?.code, 'LH_ERR_STOPPED');
      if (at !== 'dialing') assert.ok(r.channel.destroyed, 'the control connection is dropped');
      assert.ok(!r.channel.types().includes('stop'));
    });
  }

  it('start: a stop is kept until the responder started, the workers stopped at once', async () => {
    const r = await reach('start');
    r.run.stop();
    assert.equal(r.run.at, 'start');
    assert.deepEqual(r.plane().stops.length, 1);
    assert.ok(!r.channel.types().includes('stop'));
    r.channel.deliver({ type: 'started' });
    assert.equal(r.run.at, 'stopping');
    assert.equal(r.channel.lastOf('stop')?.reason, 'user');
  });

  it('running: a stop goes out once, the workers stop, and the result is partial "stopped by the user"', async () => {
    const r = await reach('running');
    r.run.stop();
    r.run.stop();
    assert.equal(r.run.at, 'stopping');
    assert.equal(r.channel.types().filter((t) => t === 'stop').length, 1);
    r.plane().end('send');
    r.channel.deliver(messageOf('results'));
    r.channel.deliver({ type: 'done' });
    const result = await resultOf(r.run);
    assert.equal(result.partialReason, 'stopped by the user');
  });

  it("running: the responder's stop (its limit) is answered with this side's, named, and recorded", async () => {
    const r = await reach('running');
    r.channel.deliver({ type: 'stop', reason: 'error', message: 'the run reached its limit', code: 'LH_ERR_RESPONDER_LIMIT' });
    assert.equal(r.run.at, 'stopping');
    assert.equal(r.channel.lastOf('stop')?.reason, 'error');
    assert.match(r.channel.lastOf('stop')?.message ?? '', /the responder far-pc \(127\.0\.0\.2:5501\) stopped the run/);
    r.plane().end('send');
    r.channel.deliver(messageOf('results'));
    r.channel.deliver({ type: 'done' });
    const result = await resultOf(r.run);
    assert.equal(result.errors[0]?.code, 'LH_ERR_RESPONDER_LIMIT');
    assert.match(result.errors[0]?.message ?? '', /^the responder far-pc \(127\.0\.0\.2:5501\): the run reached its limit/);
  });

  it("stopping: a responder stop that crossed this side's is its reason, and is not answered", async () => {
    const r = await reach('stopping');
    r.channel.deliver({ type: 'stop', reason: 'error', message: 'limit', code: 'LH_ERR_RESPONDER_LIMIT' });
    assert.equal(r.run.at, 'stopping');
    assert.equal(r.channel.types().filter((t) => t === 'stop').length, 1);
  });

  it('stopping and reported: a second stop sends nothing', async () => {
    for (const at of ['stopping', 'reported'] as const) {
      const r = await reach(at);
      const before = r.channel.sent.length;
      r.run.stop();
      assert.equal(r.channel.sent.length, before, at);
      assert.equal(r.run.at, at);
    }
  });

  it('a responder of another protocol version is refused at hello, with both versions named', async () => {
    const r = await reach('hello');
    r.channel.deliver({ type: 'hello', protocol: PROTOCOL_VERSION + 1, software: 'x', hostname: 'x', capabilities: [] });
    const result = await resultOf(r.run);
    assert.equal(result.errors.at(-1)?.code, 'LH_ERR_PROTOCOL_VERSION');
    assert.match(result.errors.at(-1)?.message ?? '', new RegExp(`speaks protocol ${PROTOCOL_VERSION + 1}; this controller speaks ${PROTOCOL_VERSION}`));
  });

  it('the data streams fail to open: LH_ERR_DATA_STREAM, nothing started', async () => {
    const r = await reach('params', (p) => (p.opening = Promise.reject(new Error('ECONNRESET'))));
    r.channel.deliver({ type: 'params-ok' });
    const result = await resultOf(r.run);
    assert.equal(result.errors.at(-1)?.code, 'LH_ERR_DATA_STREAM');
    assert.match(result.errors.at(-1)?.message ?? '', /ECONNRESET/);
    assert.equal(r.plane().startNs, null);
    assert.ok(r.plane().destroyed);
  });
});
