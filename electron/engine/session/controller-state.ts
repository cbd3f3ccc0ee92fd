/**
 * The controller's run as one state value: each state carries what exists in it (the control
 * channel from `hello`, the partner's hello and the pinger from `params`, the data plane from
 * `streams`, the watchdog from `start`), so no resource of a run is ever looked up as "maybe
 * there". The tables below are the whole machine; test/engine/session/controller-states.test.ts
 * checks them against the protocol's (protocol/session-state.ts) and drives every transition.
 *
 *   dialing ─► hello ─► params ─► streams ─► start ─started─► running ─stop sent─► stopping ─results sent─► reported ─done─► settled
 *   (any state: a failure or a stop before the start ─► settled; while data flows ─► collecting ─► settled)
 *
 * The stop waits for `started`: a stop this side decides in `start` (its own streams over, the
 * user, the watchdog) is kept as `pendingStop` and sent once the responder has started, so no
 * stop ever crosses a start. Two stops may still cross (the responder's limit and this side's own
 * end, in the same instant): in `stopping` the responder's stop is its reason, and needs no answer.
 */
import type { MessageType } from '../../protocol/messages.js';
import type { SessionState } from '../../protocol/session-state.js';
import type { Pinger } from './control-pinger.js';
import type { PartnerHello } from './peer-exchange.js';
import type { RunWatchdog } from './run-watchdog.js';
import type { SessionChannel, SessionPlane } from './session-channel.js';

/** A stop this side has decided: its reason, its message, and whether what is in flight is dropped. */
export interface StopOrder {
  reason: 'complete' | 'user' | 'error';
  message: string | null;
  cut: boolean;
}

interface Linked {
  channel: SessionChannel;
}
interface Introduced extends Linked {
  partner: PartnerHello;
  pinger: Pinger;
}
interface Planned extends Introduced {
  plane: SessionPlane;
}
interface Live extends Planned {
  watchdog: RunWatchdog;
}

export type ControllerState =
  | { at: 'dialing' }
  | ({ at: 'hello' } & Linked)
  | ({ at: 'params' } & Introduced)
  | ({ at: 'streams'; ready: boolean; opened: boolean } & Planned)
  | ({ at: 'start'; pendingStop: StopOrder | null } & Live)
  | ({ at: 'running' } & Live)
  | ({ at: 'stopping' } & Live)
  | ({ at: 'reported' } & Live)
  | { at: 'collecting'; plane: SessionPlane }
  | { at: 'settled' };

export type ControllerAt = ControllerState['at'];
export type ControllerStateAt<A extends ControllerAt> = Extract<ControllerState, { at: A }>;

/** Where each state may go. */
export const CONTROLLER_MOVES: Record<ControllerAt, readonly ControllerAt[]> = {
  dialing: ['hello', 'settled'],
  hello: ['params', 'settled'],
  params: ['streams', 'settled'],
  streams: ['start', 'settled'],
  start: ['running', 'collecting', 'settled'],
  running: ['stopping', 'collecting', 'settled'],
  stopping: ['reported', 'collecting', 'settled'],
  reported: ['settled'],
  collecting: ['settled'],
  settled: [],
};

/** The protocol state the control channel is in, per state (null: no channel, or no longer one). */
export const CONTROLLER_PROTOCOL: Record<ControllerAt, SessionState | null> = {
  dialing: null,
  hello: 'hello',
  params: 'params',
  streams: 'streams',
  start: 'start',
  running: 'running',
  stopping: 'results',
  reported: 'results',
  collecting: null,
  settled: null,
};

/** The messages each state takes from the responder (`error` ends any state, in the channel). */
export const CONTROLLER_TAKES: Record<ControllerAt, readonly MessageType[]> = {
  dialing: [],
  hello: ['hello'],
  params: ['params-ok'],
  streams: ['streams-ready'],
  start: ['started'],
  running: ['sample', 'stop', 'udp-end'],
  stopping: ['results', 'sample', 'stop', 'udp-end'],
  reported: ['done'],
  collecting: [],
  settled: [],
};
