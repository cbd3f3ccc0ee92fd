/**
 * The control session as an explicit state machine, in the order a run goes.
 *
 *   controller                                   responder
 *   ──────────                                   ─────────
 *   hello {protocol, software, caps}  ────────▶
 *                                     ◀────────  hello {protocol, software, caps}
 *   params {cookie, params}           ────────▶  (validate, spawn workers)
 *                                     ◀────────  params-ok {dataPort?, udpPorts?} | error
 *   N data connections: "LHD1"+cookie+id ══════▶  (cookie checked, socket handed to a worker)
 *     (to dataPort when given: the run's own data listener, engine/data-plane/windows-owned-listener.ts)
 *                                     ◀────────  streams-ready
 *   start                             ────────▶
 *                                     ◀────────  started
 *   sample ◀──────── both ways, every interval ────────▶ sample
 *   udp-end {lastSeq} ◀──── UDP: from the side whose senders are done ────▶ udp-end
 *   stop {reason}                     ────────▶  (senders stop, receivers drain)
 *     (never before `started`: a stop the controller decides earlier waits for it, so no stop crosses a start)
 *     (or first ◀──────── stop {error, why}: a responder limit ended the run; the controller answers with its stop;
 *      the two stops may cross, and a controller whose stop is out takes the responder's as its reason)
 *                                     ◀────────  results {responder's per-stream view}
 *   results {controller's view}       ────────▶
 *                                     ◀────────  done
 *
 * `error {code, message}` may come in any state and ends the session.
 * Every state has a read timeout: a peer that says nothing is dropped.
 */
import type { SessionPhase } from '../contract/session-phases.js';
import { ProtocolError } from '../util/errors.js';
import type { MessageType } from './messages.js';

export type Role = 'controller' | 'responder';

export type SessionState = SessionPhase;

/** Legal transitions; `failed` is reachable from anywhere. */
export const SESSION_NEXT: Record<SessionState, readonly SessionState[]> = {
  hello: ['params'],
  params: ['streams'],
  streams: ['start'],
  start: ['running', 'results'],
  running: ['results'],
  results: ['done'],
  done: [],
  failed: [],
};

/** Which incoming messages each role accepts in each state (`error` is always accepted). */
export const SESSION_ACCEPTS: Record<Role, Record<SessionState, readonly MessageType[]>> = {
  responder: {
    hello: ['hello'],
    params: ['params'],
    streams: ['stop'],
    start: ['start', 'stop'],
    running: ['sample', 'stop', 'udp-end'],
    results: ['results', 'sample', 'udp-end'],
    done: [],
    failed: [],
  },
  controller: {
    hello: ['hello'],
    params: ['params-ok'],
    streams: ['streams-ready'],
    // The controller sends its stop only once the responder said `started` (controller-state.ts): nothing crosses a start.
    start: ['started'],
    running: ['sample', 'stop', 'udp-end'],
    // 'stop': the responder's own limit (its deadline, its byte budget), sent only to controllers that announced
    // STOP_FROM_RESPONDER; in `results` it crossed this side's own stop (both ends stopped in the same instant).
    results: ['results', 'sample', 'done', 'stop', 'udp-end'],
    done: [],
    failed: [],
  },
};

/** Default read timeout per state, in milliseconds. `running` is stretched by the sample interval. */
export const DEFAULT_STATE_TIMEOUTS_MS: Record<SessionState, number> = {
  hello: 10_000,
  params: 10_000,
  streams: 15_000,
  start: 10_000,
  running: 10_000,
  results: 30_000,
  done: 10_000,
  failed: 0,
};

export class SessionMachine {
  readonly role: Role;
  private current: SessionState = 'hello';

  constructor(role: Role) {
    this.role = role;
  }

  get state(): SessionState {
    return this.current;
  }

  /** Move to `to`, or throw if the table forbids it (a bug, not a peer's fault). */
  transition(to: SessionState): void {
    if (to === 'failed' || SESSION_NEXT[this.current].includes(to)) {
      this.current = to;
      return;
    }
    throw new Error(`illegal session transition ${this.current} -> ${to}`);
  }

  /** Throw `LH_ERR_UNEXPECTED_MESSAGE` unless `type` may arrive now. */
  check(type: MessageType): void {
    if (type === 'error') return;
    if (!SESSION_ACCEPTS[this.role][this.current].includes(type)) {
      throw new ProtocolError('LH_ERR_UNEXPECTED_MESSAGE', `unexpected "${type}" message in state "${this.current}"`);
    }
  }
}
