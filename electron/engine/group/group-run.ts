/**
 * A multi-peer run: one ordinary `ControllerRun` per peer (its own control
 * channel, cookie and `longhaul.result/1`), held at a start barrier so all
 * start in the same tick, on one interval length (docs/multi-peer.md).
 *
 *   gathering ──all peers' streams ready──▶ running ──all runs settled──▶ done
 *       │  a peer fails, or is not ready START_WAIT_MS after the first one
 *       └──────────────────────────────▶ failed (no peer starts; each result says why)
 *
 * While running, a peer that vanishes ends only its own run (partial); the
 * others go on to their end, and the group is marked partial naming that peer.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import { groupRoleOf, peerLabel, type GroupPeer, type LonghaulGroupResult } from '../../contract/group.js';
import type { ErrorInfo, LonghaulResult, Side } from '../../contract/result.js';
import type { SessionState } from '../../protocol/session-state.js';
import type { ControllerSecurity } from '../../security/controller-security.js';
import { LonghaulError } from '../../util/errors.js';
import { SOFTWARE } from '../../util/version.js';
import { ControllerRun, type ControllerOptions } from '../session/controller.js';
import type { RunLinkHook } from '../session/run-handle.js';
import type { SideSample } from '../data-plane/data-plane.js';
import { buildGroupResult } from './group-aggregate.js';
import type { RunParams } from '../../protocol/run-params.js';
import { itemAt } from '../../contract/present.js';

/**
 * How long the peers ready first wait for the last one. Below the responder's 10 s read timeout
 * in its `start` state (protocol/session-state.ts), so a waiting responder never gives up first.
 */
const START_WAIT_MS = 8_000;

export interface GroupPeerTarget {
  host: string;
  port: number;
  security: ControllerSecurity;
  link?: RunLinkHook;
}

interface GroupRunOptions extends Pick<ControllerOptions, 'connectTimeoutMs' | 'timeoutsMs' | 'maxWorkersPerRole'> {
  peers: GroupPeerTarget[];
  params: RunParams;
  /** Abort to stop every peer's run; results are kept, marked partial. */
  signal?: AbortSignal;
  /** Overrides START_WAIT_MS (tests). */
  startWaitMs?: number;
  /** Each peer's rate when run alone (bit/s), for the shared-side diagnosis; optional. */
  baselineBitsPerSecond?: (number | null)[];
}

type GroupState = 'gathering' | 'running' | 'done' | 'failed';

const NEXT: Record<GroupState, readonly GroupState[]> = {
  gathering: ['running', 'failed'],
  running: ['done'],
  done: [],
  failed: [],
};

interface GroupEvents {
  /** A peer's session phase (index into `peers`). */
  phase: [number, SessionState];
  /** A peer's side sample, as `ControllerRun` emits it. */
  sample: [number, SideSample, Side];
  /** The common start went out to every peer. */
  started: [];
}

export class GroupRun extends EventEmitter<GroupEvents> {
  readonly runs: ControllerRun[];
  readonly result: Promise<LonghaulGroupResult>;
  private current: GroupState = 'gathering';
  private readonly ready = new Set<number>();
  private releaseBarrier!: () => void;
  private refuseBarrier!: (err: LonghaulError) => void;
  private readonly barrier: Promise<void>;
  private waitTimer: NodeJS.Timeout | null = null;
  private startFailure: string | null = null;
  private readonly errors: ErrorInfo[] = [];
  private readonly startedAt = new Date();

  constructor(private readonly opts: GroupRunOptions) {
    super();
    if (opts.peers.length < 1) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', 'a group run needs at least one peer');
    this.barrier = new Promise<void>((resolve, reject) => {
      this.releaseBarrier = resolve;
      this.refuseBarrier = reject;
    });
    this.barrier.catch(() => undefined); // refused with nobody waiting yet: not an unhandled rejection
    this.runs = opts.peers.map((p, i) => this.startPeer(p, i));
    opts.signal?.addEventListener('abort', () => this.stop(), { once: true });
    this.result = Promise.all(this.runs.map((r) => r.result)).then((results) => this.finish(results));
  }

  get state(): GroupState {
    return this.current;
  }

  /** Stop every peer's run (user stop); partial results are kept. Safe any time, twice. */
  stop(): void {
    if (this.current === 'gathering') this.failStart('stopped by the user before the common start');
    for (const r of this.runs) r.stop('user');
  }

  private enter(to: GroupState): void {
    if (!NEXT[this.current].includes(to)) throw new Error(`illegal group transition ${this.current} -> ${to}`);
    this.current = to;
  }

  private startPeer(p: GroupPeerTarget, i: number): ControllerRun {
    const run = new ControllerRun({
      host: p.host,
      port: p.port,
      security: p.security,
      link: p.link,
      params: this.opts.params,
      connectTimeoutMs: this.opts.connectTimeoutMs,
      timeoutsMs: this.opts.timeoutsMs,
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      startGate: () => this.arrive(i),
    });
    run.on('phase', (s) => this.emit('phase', i, s));
    run.on('sample', (s, side) => this.emit('sample', i, s, side));
    // A run that settles before the common start failed: no peer may start alone.
    void run.result.then((r) => {
      if (this.current === 'gathering') this.failStart(`${this.label(i)} failed before the start: ${firstError(r)}`);
    });
    return run;
  }

  /** A peer's streams are ready: wait for the others (bounded), then all start in one tick. */
  private arrive(i: number): Promise<void> {
    if (this.current !== 'gathering') return this.barrier;
    this.ready.add(i);
    if (this.ready.size === this.opts.peers.length) {
      if (this.waitTimer) clearTimeout(this.waitTimer);
      this.enter('running');
      this.releaseBarrier();
      queueMicrotask(() => this.emit('started'));
    } else if (!this.waitTimer) {
      const ms = this.opts.startWaitMs ?? START_WAIT_MS;
      this.waitTimer = setTimeout(() => {
        const late = this.opts.peers
          .map((_, j) => j)
          .filter((j) => !this.ready.has(j))
          .map((j) => this.label(j));
        this.failStart(`${late.join(', ')} not ready ${ms / 1000} s after the first peer: no peer was started`);
      }, ms);
      this.waitTimer.unref?.();
    }
    return this.barrier;
  }

  /** The group will not start: say why once, refuse the barrier, stop the runs still on their way. */
  private failStart(reason: string): void {
    if (this.current !== 'gathering') return;
    this.enter('failed');
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.startFailure = reason;
    const err = new LonghaulError('LH_ERR_GROUP_START', reason);
    this.errors.push(err.toJSON());
    this.refuseBarrier(err);
    for (const [j, r] of this.runs.entries()) if (!this.ready.has(j)) r.stop('error', reason);
  }

  private label(i: number): string {
    const p = itemAt(this.opts.peers, i, 'peer');
    return peerLabel({ index: i, address: `${p.host}:${p.port}` });
  }

  private finish(results: LonghaulResult[]): LonghaulGroupResult {
    if (this.current === 'running') this.enter('done');
    const starts = this.runs.map((r) => r.startedNs);
    const known = starts.filter((s): s is bigint => s !== null);
    const first = known.length ? known.reduce((a, b) => (b < a ? b : a)) : null;
    const peers: GroupPeer[] = results.map((result, i) => {
      const target = itemAt(this.opts.peers, i, 'peer');
      const ns = starts[i];
      return {
        index: i,
        address: `${target.host}:${target.port}`,
        hostname: result.responder.hostname,
        software: result.responder.software,
        role: groupRoleOf(this.opts.params.direction),
        startOffsetSeconds: ns !== null && ns !== undefined && first !== null ? Number(ns - first) / 1e9 : null,
        result,
      };
    });
    return buildGroupResult(
      {
        id: randomBytes(8).toString('hex'),
        software: SOFTWARE,
        startedAt: this.startedAt,
        endedAt: new Date(),
        controller: { hostname: os.hostname(), address: 'local', software: SOFTWARE },
        params: itemAt(this.runs, 0, 'run').params,
        startFailure: this.startFailure,
        errors: this.errors,
        baselineBitsPerSecond: this.opts.baselineBitsPerSecond,
      },
      peers,
    );
  }
}

function firstError(r: LonghaulResult): string {
  const e = r.errors[0];
  return e ? `${e.code}: ${e.message}` : (r.partialReason ?? 'unknown reason');
}

/** Start a multi-peer run; see `GroupRun`. */
export function startGroupRun(opts: GroupRunOptions): GroupRun {
  return new GroupRun(opts);
}
