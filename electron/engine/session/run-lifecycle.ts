/**
 * Where one side's run stands, as one explicit state each, instead of four
 * booleans per side (`started`, `stopSent`, `localEnds`, `settled` on the
 * controller; `started`, `stopRequested`, `localDone`, `ended` on the
 * responder) whose combinations nobody wrote down. Transitions only go
 * forward; a transition that does not apply returns false and changes nothing.
 *
 * The controller's run is a line: it sends the stop itself, at the latest when
 * its own streams are over.
 *
 *   setup ─start─► running ─stop sent─► stopping ─own ends─► ended ─► settled
 *     └──────────────────────── fail / finish ──────────────────────────┘
 *
 * The responder waits for two things in either order, the controller's stop
 * and the end of its own streams, and reports once it has both.
 *
 *   setup ─start─► running ─stop─► stopped ──own ends──► reporting ─results─► settled
 *                     └─own ends─► drained ──stop──────────┘
 */

type ControllerPhase = 'setup' | 'running' | 'stopping' | 'ended' | 'settled';
type ResponderPhase = 'setup' | 'running' | 'stopped' | 'drained' | 'reporting' | 'settled';

const CONTROLLER_ORDER: readonly ControllerPhase[] = ['setup', 'running', 'stopping', 'ended', 'settled'];

export class ControllerLifecycle {
  phase: ControllerPhase = 'setup';

  /** At `p` or past it. */
  reached(p: ControllerPhase): boolean {
    return CONTROLLER_ORDER.indexOf(this.phase) >= CONTROLLER_ORDER.indexOf(p);
  }

  /** Move forward to `p`; false (and no change) when already there or past it. */
  advance(p: ControllerPhase): boolean {
    if (this.reached(p)) return false;
    this.phase = p;
    return true;
  }
}

export class ResponderLifecycle {
  phase: ResponderPhase = 'setup';
  /** Whether the data plane was ever started (history, kept after settling: a result exists). */
  started = false;

  get settled(): boolean {
    return this.phase === 'settled';
  }

  /** The data plane was started (by the controller's start, or by a stop that came before it). */
  start(): boolean {
    if (this.phase !== 'setup') return false;
    this.phase = 'running';
    this.started = true;
    return true;
  }

  /** The controller's stop arrived; true when this side now has both the stop and its own ends. */
  stopReceived(): boolean {
    if (this.phase === 'running') this.phase = 'stopped';
    else if (this.phase === 'drained') this.phase = 'reporting';
    return this.phase === 'reporting';
  }

  /** This side's streams are over; true when this side now has both the stop and its own ends. */
  ownEnds(): boolean {
    if (this.phase === 'running') this.phase = 'drained';
    else if (this.phase === 'stopped') this.phase = 'reporting';
    return this.phase === 'reporting';
  }

  /** Running with no stop heard yet (its own streams may be over already). */
  get awaitingStop(): boolean {
    return this.phase === 'running' || this.phase === 'drained';
  }

  /** Whether this side's streams are over (its ends recorded). */
  get hasOwnEnds(): boolean {
    return this.phase === 'drained' || this.phase === 'reporting';
  }

  /** Done, whatever the state; false when it already was. */
  settle(): boolean {
    if (this.phase === 'settled') return false;
    this.phase = 'settled';
    return true;
  }
}
