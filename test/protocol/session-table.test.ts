/**
 * The control session, state by state, without sockets: which message each
 * role takes in each state (every state × every message type, against the
 * protocol as docs/protocol and session-state.ts's diagram describe it), and
 * the control channel's read timeouts over an in-memory duplex with mock
 * timers: a silent peer is dropped exactly when its state's timeout says.
 */
import assert from 'node:assert/strict';
import type net from 'node:net';
import { describe, it, mock } from 'node:test';
import { ControlChannel } from '../../electron/protocol/control-channel.js';
import { encodeFrame } from '../../electron/protocol/framing.js';
import type { MessageType } from '../../electron/protocol/messages.js';
import { DEFAULT_STATE_TIMEOUTS_MS, SessionMachine, type Role, type SessionState } from '../../electron/protocol/session-state.js';
import type { LonghaulError } from '../../electron/util/errors.js';
import { MemorySocket } from '../helpers/memory-socket.js';

const MESSAGES: MessageType[] = ['hello', 'params', 'params-ok', 'streams-ready', 'start', 'started', 'sample', 'udp-end', 'stop', 'results', 'done', 'error'];
const STATES: SessionState[] = ['hello', 'params', 'streams', 'start', 'running', 'results', 'done', 'failed'];
/** The ways a state can be reached from 'hello'. */
const PATH: Record<SessionState, SessionState[]> = {
  hello: [],
  params: ['params'],
  streams: ['params', 'streams'],
  start: ['params', 'streams', 'start'],
  running: ['params', 'streams', 'start', 'running'],
  results: ['params', 'streams', 'start', 'running', 'results'],
  done: ['params', 'streams', 'start', 'running', 'results', 'done'],
  failed: ['failed'],
};

/** The protocol, written out: what each role accepts where (`error` everywhere). */
const SPEC: Record<Role, Partial<Record<SessionState, MessageType[]>>> = {
  responder: {
    hello: ['hello'],
    params: ['params'],
    streams: ['stop'],
    start: ['start', 'stop'],
    running: ['sample', 'stop', 'udp-end'],
    results: ['results', 'sample', 'udp-end'],
  },
  controller: {
    hello: ['hello'],
    params: ['params-ok'],
    streams: ['streams-ready'],
    start: ['started'],
    running: ['sample', 'stop', 'udp-end'],
    results: ['results', 'sample', 'done', 'stop', 'udp-end'],
  },
};

function machineIn(role: Role, state: SessionState): SessionMachine {
  const m = new SessionMachine(role);
  for (const s of PATH[state]) m.transition(s);
  return m;
}

describe('session state machine: every role × state × message', () => {
  for (const role of ['controller', 'responder'] as const) {
    for (const state of STATES) {
      it(`${role} in "${state}"`, () => {
        const m = machineIn(role, state);
        for (const type of MESSAGES) {
          const accepted = type === 'error' || (SPEC[role][state] ?? []).includes(type);
          if (accepted) assert.doesNotThrow(() => m.check(type), `${role} in ${state} takes ${type}`);
          else assert.throws(() => m.check(type), { code: 'LH_ERR_UNEXPECTED_MESSAGE' }, `${role} in ${state} refuses ${type}`);
        }
      });
    }
  }

  it('moves only forward, and to failed from anywhere', () => {
    const m = new SessionMachine('controller');
    assert.throws(() => m.transition('running'), /illegal session transition hello -> running/);
    m.transition('params');
    assert.throws(() => m.transition('hello'));
    m.transition('failed');
    assert.throws(() => m.transition('params'));
  });
});

describe('control channel over an in-memory duplex, mock timers', () => {
  it("drops a peer silent for exactly its state's timeout, and says which state", (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'responder' });
    const failures: LonghaulError[] = [];
    ch.on('failure', (e) => failures.push(e));
    mock.timers.tick(DEFAULT_STATE_TIMEOUTS_MS.hello - 1);
    assert.equal(failures.length, 0, 'not a millisecond early');
    mock.timers.tick(1);
    assert.equal(failures[0]?.code, 'LH_ERR_TIMEOUT');
    assert.match(failures[0]!.message, /nothing for 10 s in state "hello"/);
  });

  it("a message restarts nothing by itself; entering a state re-arms that state's timeout", async (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'responder', timeoutsMs: { params: 500 } });
    const got: string[] = [];
    const failures: LonghaulError[] = [];
    ch.on('message', (m) => {
      got.push(m.type);
      ch.enter('params');
    });
    ch.on('failure', (e) => failures.push(e));
    socket.push(encodeFrame({ type: 'hello', protocol: 1, software: 'x', hostname: 'h', capabilities: [] }));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, ['hello']);
    mock.timers.tick(499);
    assert.equal(failures.length, 0);
    mock.timers.tick(1);
    assert.match(failures[0]?.message ?? '', /nothing for 0.5 s in state "params"/);
  });

  it('a message out of place fails the session with LH_ERR_UNEXPECTED_MESSAGE and tells the peer', async () => {
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'responder' });
    const failures: LonghaulError[] = [];
    ch.on('failure', (e) => failures.push(e));
    socket.push(encodeFrame({ type: 'start' }));
    await new Promise((r) => setImmediate(r));
    assert.equal(failures[0]?.code, 'LH_ERR_UNEXPECTED_MESSAGE');
    const told = Buffer.concat(socket.written).subarray(4).toString();
    assert.match(told, /"type":"error","code":"LH_ERR_UNEXPECTED_MESSAGE"/);
    ch.destroy();
  });
});
