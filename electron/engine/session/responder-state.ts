/**
 * The responder's run as one state value: each state carries what exists in it (the controller's
 * hello from `params`, the run — its parameters, data plane, recorder and listener — from the
 * moment the params are accepted, the limit guard while data flows), so no resource of a run is
 * looked up as "maybe there". The tables below are the whole machine;
 * test/engine/session/responder-states.test.ts checks them against the protocol's and drives every
 * transition.
 *
 *   hello ─► params ─► (UDP: binding) ─► streams ─► start ─start─► running ─stop─► stopped ─own ends─► reporting ─results─► settled
 *                                                                    └─own ends─► drained ─stop───────────┘
 *   (a stop before the start: start ─► stopped, or streams ─► settled; any failure ─► settled, or, while data flows, collecting ─► settled)
 *
 * The responder waits for two things in either order, the controller's stop and the end of its own
 * streams, and reports once it has both.
 */
import type { MessageType } from '../../protocol/messages.js';
import type { SessionState } from '../../protocol/session-state.js';
import type { LocalSettingsRead } from './local-settings.js';
import type { PlannedStream } from '../../contract/stream-plan.js';
import type { RunParams } from '../../protocol/run-params.js';
import type { PartnerHello } from './peer-exchange.js';
import type { RunListener } from './responder-listener.js';
import type { RunLimitGuard } from './responder-limits.js';
import type { RunRecorder } from './run-recorder.js';
import type { SessionPlane } from './session-channel.js';

/** What one accepted run is made of, from `params` on. */
export interface ResponderRun {
  readonly params: RunParams;
  readonly plan: PlannedStream[];
  readonly cookie: string;
  readonly plane: SessionPlane;
  readonly recorder: RunRecorder;
  /** This PC's TCP settings, read from the run's start: for the advice and for the controller. */
  readonly settings: LocalSettingsRead;
  readonly listener: RunListener;
}

/** The data connections of a TCP run as they come in. */
interface Intake {
  /** Stream ids whose connection arrived (claimed at once, so a duplicate is refused). */
  readonly arrived: Set<number>;
  /** Stream ids whose worker has taken the connection: streams-ready waits for all of them. */
  readonly handedOver: Set<number>;
}

interface Introduced {
  partner: PartnerHello;
}
interface Accepted extends Introduced {
  run: ResponderRun;
}
interface Flowing extends Accepted {
  guard: RunLimitGuard;
  /** Why a limit of this responder ended the run (null while none did). */
  limitReason: string | null;
}
interface Ending extends Accepted {
  /** Why the run is partial, as the results tell the controller (null: it is not, as far as this side knows). */
  stopReason: string | null;
}

export type ResponderState =
  | { at: 'hello' }
  | ({ at: 'params' } & Introduced)
  | ({ at: 'binding' } & Accepted)
  | ({ at: 'streams'; intake: Intake } & Accepted)
  | ({ at: 'start' } & Accepted)
  | ({ at: 'running' } & Flowing)
  | ({ at: 'drained' } & Flowing)
  | ({ at: 'stopped' } & Ending)
  | ({ at: 'reporting' } & Ending)
  | { at: 'collecting'; run: ResponderRun }
  | { at: 'settled' };

export type ResponderAt = ResponderState['at'];
export type ResponderStateAt<A extends ResponderAt> = Extract<ResponderState, { at: A }>;

export const RESPONDER_MOVES: Record<ResponderAt, readonly ResponderAt[]> = {
  hello: ['params', 'settled'],
  params: ['binding', 'streams', 'settled'],
  binding: ['streams', 'settled'],
  streams: ['start', 'settled'],
  start: ['running', 'stopped', 'settled'],
  running: ['drained', 'stopped', 'collecting', 'settled'],
  drained: ['reporting', 'settled'],
  stopped: ['reporting', 'collecting', 'settled'],
  reporting: ['settled'],
  collecting: ['settled'],
  settled: [],
};

/** The protocol state the control channel is in, per state (null: the session is over). */
export const RESPONDER_PROTOCOL: Record<ResponderAt, SessionState | null> = {
  hello: 'hello',
  params: 'params',
  binding: 'params',
  streams: 'streams',
  start: 'start',
  running: 'running',
  drained: 'running',
  stopped: 'results',
  reporting: 'results',
  collecting: null,
  settled: null,
};

/** The messages each state takes from the controller (`error` ends any state, in the channel). */
export const RESPONDER_TAKES: Record<ResponderAt, readonly MessageType[]> = {
  hello: ['hello'],
  params: ['params'],
  binding: [],
  streams: ['stop'],
  start: ['start', 'stop'],
  running: ['sample', 'stop', 'udp-end'],
  drained: ['sample', 'stop', 'udp-end'],
  stopped: ['sample', 'udp-end'],
  reporting: ['results', 'sample', 'udp-end'],
  collecting: [],
  settled: [],
};
