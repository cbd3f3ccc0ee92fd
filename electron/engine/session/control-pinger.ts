/**
 * The control channel's own round trip, idle and under load: the controller
 * pings the responder (protocol/control-channel.ts answers below the session)
 * once the params are accepted and twice when the streams are ready, and every PERIOD_MS while it
 * flows. The control connection crosses the same path as the data, so under
 * load it waits in the same queue: a second measure of the queueing beside
 * TCP_INFO's, and the only one where an OS gives no RTT.
 */
import type { ControlRtts } from '../../analysis/delay-summary.js';
import { CONTROL_PING } from './run-common.js';
import type { SessionChannel } from './session-channel.js';

const PERIOD_MS = 500;
/** Pings awaiting an answer at most (a peer that stops answering is not waited on without bound). */
const MAX_OUTSTANDING = 16;
/** Round trips kept per phase (a day-long run at 2 a second would be 172,800). */
const MAX_KEPT = 2000;

type Phase = 'idle' | 'loaded';

/** What the controller does with the control channel's round trips. */
export interface Pinger {
  pingIdle(): void;
  startLoaded(): void;
  stop(): void;
  /** The round trips answered so far, ms; null where the partner does not answer pings. */
  figures(): ControlRtts | null;
}

/** A partner that does not answer pings: nothing is sent, and there is no figure. */
const SILENT: Pinger = { pingIdle: () => {}, startLoaded: () => {}, stop: () => {}, figures: () => null };

/** The pinger for a partner that announced `capabilities` in its hello. */
export function pingerFor(channel: SessionChannel, capabilities: readonly string[], onRtt: (phase: Phase, ms: number) => void): Pinger {
  return capabilities.includes(CONTROL_PING) ? new ControlPinger(channel, onRtt) : SILENT;
}

class ControlPinger implements Pinger {
  private nextId = 1;
  private readonly sent = new Map<number, { ns: bigint; phase: Phase }>();
  private readonly rtts: Record<Phase, number[]> = { idle: [], loaded: [] };
  private timer: NodeJS.Timeout | null = null;

  /** `onRtt`: told each round trip as it is answered (the Run screen's live figure). */
  constructor(
    private readonly channel: SessionChannel,
    private readonly onRtt: (phase: Phase, ms: number) => void = () => {},
  ) {
    channel.on('pong', (id) => this.onPong(id));
  }

  /** One ping before the transfer (the path idle). */
  pingIdle(): void {
    this.ping('idle');
  }

  /** The transfer began: ping every PERIOD_MS until stop(). */
  startLoaded(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.ping('loaded'), PERIOD_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The round trips answered so far, ms. */
  figures(): ControlRtts {
    return { idleMs: [...this.rtts.idle], loadedMs: [...this.rtts.loaded] };
  }

  private ping(phase: Phase): void {
    if (this.sent.size >= MAX_OUTSTANDING) return;
    const id = this.nextId++;
    this.sent.set(id, { ns: process.hrtime.bigint(), phase });
    this.channel.send({ type: 'ping', id });
  }

  private onPong(id: number): void {
    const s = this.sent.get(id);
    if (!s) return;
    this.sent.delete(id);
    const list = this.rtts[s.phase];
    const ms = Number(process.hrtime.bigint() - s.ns) / 1e6;
    if (list.length < MAX_KEPT) list.push(ms);
    this.onRtt(s.phase, ms);
  }
}
