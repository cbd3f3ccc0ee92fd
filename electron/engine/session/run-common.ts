/** Small pieces both ends of a run share. */
import os from 'node:os';
import type { SideSample } from '../data-plane/data-plane.js';
import type { SessionPlane } from './session-channel.js';
import type { MessageOf } from '../../protocol/messages.js';
import type { PeerOs } from '../../contract/advice.js';
import type { WindowInfo } from '../../contract/result.js';
import { SETTINGS_IN_RESULTS } from './partner-settings.js';
import { summarizeWindow } from '../../analysis/window-summary.js';

/** Announced in hello by an end that runs UDP tests (engine/session/udp-session.ts). */
export const UDP_CAPABILITY = 'protocol:udp';

/** A controller that takes a `stop` from its responder (a responder limit ended the run) says so in `hello`. */
export const STOP_FROM_RESPONDER = 'stop:from-responder';
/** This end answers `ping` on the control channel with `pong` (protocol/control-channel.ts). */
export const CONTROL_PING = 'control:ping';

/** This end takes `zeroCopy` (-Z) in a run's params (protocol/run-params.ts); an older one's strict schema would refuse it. */
export const ZERO_COPY_CAPABILITY = 'send:zerocopy';

/** What this build can do, announced in `hello`. */
export const CAPABILITIES = [
  'streams:128',
  'direction:forward',
  'direction:reverse',
  'direction:bidir',
  'interval:0.1',
  STOP_FROM_RESPONDER,
  SETTINGS_IN_RESULTS,
  CONTROL_PING,
  UDP_CAPABILITY,
  ZERO_COPY_CAPABILITY,
];

/** This side's sample as the peer receives it (the same fields both ways). */
export function sampleMessage(s: SideSample): MessageOf<'sample'> {
  return {
    type: 'sample',
    index: s.index,
    t: s.t,
    final: s.final,
    streams: s.streams,
    ...(s.tcp ? { tcp: s.tcp } : {}),
    ...(s.udp ? { udp: s.udp } : {}),
    ...(s.from !== undefined ? { from: s.from } : {}),
  };
}

/** How long receivers may take to see the peer's FIN after a stop, in ms. */
export const STOP_GRACE_MS = 3000;

/**
 * The read timeout while running. Both sides send a sample every interval, so
 * silence for several intervals (and at least 10 s, for slow links) means the
 * peer is gone.
 */
export function runningTimeoutMs(intervalSeconds: number): number {
  return Math.max(10_000, intervalSeconds * 5_000);
}

/**
 * The window line before any stream exists. The result's final line comes from
 * the stream ends' socket reports (see window-summary.ts, applied in RunRecorder.build).
 */
export function windowInfo(requestedBytes: number | null): WindowInfo {
  return summarizeWindow(requestedBytes, []);
}

/** This PC's OS as the hello announces it and the result records it. */
export function localOs(): PeerOs {
  return { platform: os.platform(), release: os.release() };
}

/** How long a failing side waits for its data workers' ends before it gives up on them, ms. */
const COLLECT_WAIT_MS = 3000;

/**
 * A run failed: keep what this side's data workers measured (stop them with a short grace, wait
 * for their ends at most COLLECT_WAIT_MS), then `finish`. The controller and the responder both end a
 * failed run whose data was flowing this way.
 */
export function collectThenFinish(plane: Pick<SessionPlane, 'stop' | 'once'>, finish: () => void): void {
  plane.stop(Math.min(STOP_GRACE_MS, 1000));
  const timer = setTimeout(finish, COLLECT_WAIT_MS);
  plane.once('done', () => {
    clearTimeout(timer);
    finish();
  });
}
