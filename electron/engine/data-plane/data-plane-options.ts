/** What a DataPlane is built from (data-plane.ts, which re-exports it). */
import type { AppliedWindow } from '../../native/advertised-window.js';
import type { MssSetup } from '../../native/mss-setup.js';
import type { RunParams } from '../../protocol/run-params.js';
import type { PlannedStream, StreamSender } from '../../contract/stream-plan.js';

/** The run, its plan and which end this process is; the responder's listener facts and caps. */
export interface DataPlaneOptions {
  params: RunParams;
  plan: PlannedStream[];
  /** Which end this process is; decides the role of each stream here. */
  side: StreamSender;
  /** The other end as stream errors name it (contract/partner-label.ts): `the responder lab-7 (192.0.2.7:5211)`. */
  partner: string;
  /** Cap on worker processes per role; default: the machine's parallelism (worker-slot.ts workerCount). */
  maxWorkersPerRole?: number;
  /** The partner's end runs on this PC (engine/session/same-pc.ts): its threads share these cores. Absent or null: not known. */
  samePc?: boolean | null;
  /** Responder side: whether the listening socket's buffers were set to the requested window. */
  listenerWindow?: { applied: boolean; reason: string | null; window?: AppliedWindow | null };
  /** Responder side: how setting the listener's MSS went (see WorkerInit.listenerMss). */
  listenerMss?: MssSetup | null;
  /** Responder side: stream id → the most it may move whatever the peer does (responder-limits.ts streamCaps). */
  caps?: ReadonlyMap<number, number>;
  /**
   * Keep the workers (and so their sockets) after every stream has ended, until destroy():
   * drained() can then still read the senders' TCP_INFO.
   */
  keepWorkersAfterDone?: boolean;
}
