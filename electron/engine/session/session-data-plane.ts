/** The data plane as a session drives it (session-channel.ts's SessionPlane), over engine/data-plane's DataPlane. */
import { DataPlane } from '../data-plane/data-plane.js';
import type { DataPlaneOptions } from '../data-plane/data-plane-options.js';
import type { MessageOf } from '../../protocol/messages.js';
import { openControllerStreams } from './controller-streams.js';
import type { IncomingData, SessionPlane, StreamsContext } from './session-channel.js';
import { peerSendersDone, responderUdpSetup } from './udp-session.js';
import type { PlannedStream } from '../../contract/stream-plan.js';

class SessionDataPlane extends DataPlane implements SessionPlane {
  private readonly plan: readonly PlannedStream[];

  constructor(opts: DataPlaneOptions) {
    super(opts);
    this.plan = opts.plan;
  }

  openStreams(ok: MessageOf<'params-ok'>, c: StreamsContext): Promise<void> {
    return openControllerStreams(this, ok, c);
  }

  take(id: number, c: IncomingData): Promise<void> {
    return c.handOver(this, id);
  }

  bindUdp(host: string, cookie: string): Promise<{ ports: [number, number][]; connected: Promise<void> }> {
    return responderUdpSetup(this, this.plan, host, cookie);
  }

  peerSendersDone(lastSeq: readonly [number, number][]): void {
    peerSendersDone(this, lastSeq);
  }
}

/** A session's data plane in a real run. */
export function sessionDataPlane(opts: DataPlaneOptions): SessionPlane {
  return new SessionDataPlane(opts);
}
