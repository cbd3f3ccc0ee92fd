/**
 * What a run in progress shows its callers, whoever runs it (the controller, a run measuring the path after,
 * engine/iperf3/iperf3-client.ts): its events and result, and the link emulator's hook into it.
 */
import type { EventEmitter } from 'node:events';
import type { CapacityProgress } from '../../contract/capacity-info.js';
import type { LonghaulResult, Side } from '../../contract/result.js';
import type { LinkInfo } from '../../contract/link-info.js';
import type { SessionState } from '../../protocol/session-state.js';
import type { SideSample } from '../data-plane/data-plane.js';

/** How a run through the link-emulator proxy reports its link (see electron/proxy/, docs/proxy.md). */
export interface RunLinkHook {
  /** Called once, at the moment the data streams start (t = 0 of the result). */
  onStart?(): void;
  /** The link as it was during the run, asked for when the result is built. */
  record(): LinkInfo;
  /** Bring what record() says up to date (the proxy's counters); awaited at most LINK_REFRESH_MS before the final result. */
  refresh?(): Promise<void>;
  /**
   * Carry connections to another port of the target through the same emulated link (a
   * responder's own data port, params-ok.dataPort); resolves with the emulator's local port for it.
   */
  forwardPort?(targetPort: number): Promise<number>;
  /** Relay a UDP stream's port of the target through the same emulated link, both ways; resolves with the emulator's local port for it. */
  forwardUdpPort?(targetPort: number): Promise<number>;
}

export interface RunEvents {
  /** A session phase was entered (for progress displays). */
  phase: [SessionState];
  /** One side's cumulative counters at an interval tick. */
  sample: [SideSample, Side];
  /** Only a run that measures the path after (capacity-run.ts): its tuned phase began, or ended with a figure. */
  capacity: [CapacityProgress];
  /** The controller's ping over the control channel was answered: its round trip, ms, idle (before the data) or under load. */
  controlRtt: [{ phase: 'idle' | 'loaded'; ms: number }];
}

/** What a display or a report needs of a run in progress, whoever runs it (this controller, or engine/iperf3/iperf3-client.ts). */
export interface RunHandle extends EventEmitter<RunEvents> {
  readonly result: Promise<LonghaulResult>;
  /** The run's start as its result records it (wall clock), once the 'start' phase is entered; absent where a run does not say. */
  readonly startedAt?: Date | null;
}
