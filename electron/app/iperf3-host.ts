/**
 * The Waiting screen's "Also answer iperf3 clients" switch: an engine `Iperf3Server`
 * beside the responder, started and stopped from the UI. Its tests show live on the
 * responder's channels (`onResponderSample`, `onResponderEnd`) as the responder's runs
 * do, and are saved to History. Its own state goes out on `onIperf3Server`.
 */
import type { Iperf3ServerStatus } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { MAX_STREAMS } from '../contract/limits.js';
import { Iperf3Server } from '../engine/iperf3/iperf3-server.js';
import type { Iperf3ServerSession } from '../engine/iperf3/iperf3-server-session.js';
import type { EventHub } from './event-hub.js';
import type { HistoryStore } from './history-store.js';
import { listenFailure } from './listen-failure.js';
import { toLiveSample } from './live-sample.js';

/** Who likely holds a busy iperf3 port, and what to do: said on the Waiting screen. */
const IPERF3_PORT_IN_USE = { holder: 'an iperf3 -s or another program holds it', fix: 'stop that program, or pick another port' };

export class Iperf3Host {
  private server: Iperf3Server | null = null;
  private status: Iperf3ServerStatus = stopped(null);
  private runCount = 0;

  constructor(
    private readonly hub: EventHub,
    private readonly history: HistoryStore,
    private readonly bind: string | null = null,
  ) {}

  current(): Iperf3ServerStatus {
    return this.status;
  }

  /** Listen on `port` (0 = any free port). Starting twice returns the running status. */
  async start(port: number): Promise<Iperf3ServerStatus> {
    if (this.server) return this.status;
    // iperf3 opens its streams one after another, but a -P 128 --bidir burst still needs room.
    const server = new Iperf3Server({ port, host: this.bind ?? undefined, maxPendingConnections: 2 * MAX_STREAMS + 8 });
    this.server = server;
    try {
      const addr = await server.listen();
      if (this.server !== server) {
        await server.close();
        return this.status;
      }
      this.set({ ...stopped(null), state: 'listening', port: addr.port });
    } catch (err) {
      if (this.server === server) this.server = null;
      await server.close();
      this.set(stopped(listenFailure(port, err, IPERF3_PORT_IN_USE)));
      return this.status;
    }
    server.on('session', (s) => this.onSession(s));
    server.on('session-end', (result) => void this.onSessionEnd(result));
    return this.status;
  }

  /** Stop listening and end any test (its partial result still reaches History). Idempotent. */
  async stop(): Promise<Iperf3ServerStatus> {
    const s = this.server;
    this.server = null;
    if (s) await s.close();
    this.set(stopped(null));
    return this.status;
  }

  private onSession(s: Iperf3ServerSession): void {
    const runId = `iperf3-${++this.runCount}`;
    this.set({ ...this.status, state: 'running', peer: s.remoteAddress, runId });
    s.on('sample', (sample, side) => this.hub.emit('onResponderSample', toLiveSample(runId, side, sample, null)));
  }

  private async onSessionEnd(result: LonghaulResult | null): Promise<void> {
    const runId = this.status.runId ?? 'iperf3';
    if (this.server) this.set({ ...this.status, state: 'listening', peer: null, runId: null });
    if (!result) return;
    const { savedPath, saveError } = await this.history.trySave(result);
    this.hub.emit('onResponderEnd', { runId, result, savedPath, saveError });
  }

  private set(s: Iperf3ServerStatus): void {
    this.status = s;
    this.hub.emit('onIperf3Server', s);
  }
}

function stopped(error: Iperf3ServerStatus['error']): Iperf3ServerStatus {
  return { state: 'stopped', port: null, peer: null, runId: null, error };
}
