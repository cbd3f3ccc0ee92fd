/**
 * The phases of a control session, in the order a run goes through them
 * (protocol/session-state.ts draws the handshake and holds the transitions):
 * one list for the state machine, the app's `run:phase` events and the
 * renderer's progress, which orders a group's phases by it. Pure: the
 * renderer shares it.
 */
export const SESSION_PHASES = ['hello', 'params', 'streams', 'start', 'running', 'results', 'done', 'failed'] as const;
export type SessionPhase = (typeof SESSION_PHASES)[number];
