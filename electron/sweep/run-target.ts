/**
 * Where a sweep's runs go. A target is opened once, runs one cell's settings
 * at a time, and is closed once: a paired peer (as `longhaul run` does), or a
 * long-lived responder on this PC (as `longhaul loopback` does, but one for
 * the whole sweep). Either way a cell with a link preset, or with
 * `path: relay`, goes through a `longhaul proxy` on this PC started for that
 * run alone, so no run inherits another's relay state.
 */
import type { LonghaulResult } from '../contract/result.js';
import type { SweepCellSettings } from '../contract/sweep.js';
import type { CapacityInfo } from '../contract/capacity-info.js';
import { startRun } from '../engine/session/controller.js';
import { startIperf3Run } from '../engine/iperf3/iperf3-client.js';
import { attachCapacity, startRunWithCapacity } from '../engine/session/capacity-run.js';
import type { RunHandle } from '../engine/session/run-handle.js';
import { startPairedLocalResponder, stopLocalResponder, type PairedLocalResponder } from '../engine/session/local-responder.js';
import type { RunParams } from '../protocol/run-params.js';
import { ProxyProcess } from '../engine/session/proxy-process.js';
import { NO_LINK, parseLinkSpec, type LinkSpec } from '../proxy/link-settings.js';
import { findPreset, LINK_PRESETS } from '../proxy/presets.js';
import type { ControllerSecurity } from '../security/controller-security.js';
import type { LoadedTrust } from '../security/load-trust.js';
import { ArgumentError, LonghaulError } from '../util/errors.js';

/**
 * What a run does about the path's capacity (a sweep's plan.capacity): measure it after the run (the first run
 * over a path), judge the run against a figure the sweep already has, or neither (null).
 */
export type CapacityAsk = { measure: true } | { known: CapacityInfo } | null;

export interface RunTarget {
  /** For the plan line: `127.0.0.1 (a responder on this PC)`. */
  readonly label: string;
  /** Get ready for runs (start and pair the local responder). Idempotent. */
  open(): Promise<void>;
  /** Run one cell's settings; resolves with the result (partial when stopped through `signal`). Throws when no run could start (a relay that did not come up). */
  run(settings: SweepCellSettings, signal: AbortSignal, capacity: CapacityAsk, onRun?: (run: RunHandle) => void): Promise<LonghaulResult>;
  /** Release everything. Idempotent. */
  close(): Promise<void>;
}

/** The proxy a cell needs: its preset's link, or a plain relay; null for a direct run. */
function linkForCell(s: SweepCellSettings): { spec: LinkSpec; preset: string | null } | null {
  if (s.linkSettings) return { spec: parseLinkSpec(s.linkSettings), preset: s.link };
  if (s.link !== null) {
    const p = findPreset(s.link);
    if (!p) throw new ArgumentError(`unknown link preset "${s.link}" (known: ${LINK_PRESETS.map((x) => x.name).join(', ')})`, '--link');
    // A link is already a relay: path=relay adds nothing to it.
    return { spec: parseLinkSpec(p.settings), preset: p.name };
  }
  return s.path === 'relay' ? { spec: parseLinkSpec(NO_LINK), preset: null } : null;
}

/** Run through the cell's proxy if it has one, to `host:port`; the proxy is stopped whatever happens. */
async function runVia(
  host: string,
  port: number,
  security: ControllerSecurity,
  s: SweepCellSettings,
  signal: AbortSignal,
  capacity: CapacityAsk,
  onRun?: (run: RunHandle) => void,
): Promise<LonghaulResult> {
  const link = linkForCell(s);
  const proxy = link ? await ProxyProcess.start(port, link.spec, link.preset, host) : null;
  try {
    const opts = { host: proxy ? '127.0.0.1' : host, port: proxy?.port ?? port, params: s.params as RunParams, signal, security, link: proxy?.hook() };
    if (capacity && 'measure' in capacity) {
      const measured = startRunWithCapacity({ ...opts, capacity: true });
      onRun?.(measured);
      return await measured.result;
    }
    const run = startRun(opts);
    onRun?.(run);
    const r = await run.result;
    // The sweep measured this path already: the run is judged against that figure, as the measuring run was.
    if (capacity && r.total.bytes > 0) attachCapacity(r, capacity.known, run.localSettings);
    return r;
  } finally {
    await proxy?.stop();
  }
}

/** A paired responder at `host:port` (security from loadTrust, as `longhaul run`). */
export class PeerTarget implements RunTarget {
  readonly label: string;
  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly security: ControllerSecurity,
  ) {
    this.label = `${host}:${port}`;
  }
  async open(): Promise<void> {}
  run(s: SweepCellSettings, signal: AbortSignal, capacity: CapacityAsk, onRun?: (run: RunHandle) => void): Promise<LonghaulResult> {
    return runVia(this.host, this.port, this.security, s, signal, capacity, onRun);
  }
  async close(): Promise<void> {}
}

/** One `longhaul listen` on 127.0.0.1 for the whole sweep (not `--once`: setup per run stays small), paired once. */
export class LoopbackTarget implements RunTarget {
  readonly label = '127.0.0.1 (a responder on this PC)';
  private responder: PairedLocalResponder | null = null;
  private opening: Promise<void> | null = null;

  constructor(
    private readonly trust: LoadedTrust,
    private readonly workers?: number,
  ) {}

  /** The responder's process, for tests that make the partner vanish. */
  get responderProcess(): PairedLocalResponder['child'] | null {
    return this.responder?.child ?? null;
  }

  open(): Promise<void> {
    this.opening ??= startPairedLocalResponder(this.trust, { once: false, workers: this.workers }).then((r) => {
      this.responder = r;
    });
    return this.opening;
  }

  run(s: SweepCellSettings, signal: AbortSignal, capacity: CapacityAsk, onRun?: (run: RunHandle) => void): Promise<LonghaulResult> {
    if (!this.responder) throw new LonghaulError('LH_ERR_NOT_AVAILABLE', 'the local responder is not started (open() first)');
    return runVia('127.0.0.1', this.responder.port, this.responder.security, s, signal, capacity, onRun);
  }

  async close(): Promise<void> {
    const r = this.responder;
    this.responder = null;
    if (r) await stopLocalResponder(r.child);
  }
}

/** An `iperf3 -s` at `host:port` (`run --iperf3`): each run speaks iperf3; no link, no capacity (`--udp-ramp` uses it). */
export class Iperf3Target implements RunTarget {
  readonly label: string;
  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly workers?: number,
  ) {
    this.label = `${host}:${port} (iperf3 -s)`;
  }
  async open(): Promise<void> {}
  run(s: SweepCellSettings, signal: AbortSignal, _capacity: CapacityAsk, onRun?: (run: RunHandle) => void): Promise<LonghaulResult> {
    const run = startIperf3Run({ host: this.host, port: this.port, params: s.params as RunParams, signal, maxWorkersPerRole: this.workers });
    onRun?.(run);
    return run.result;
  }
  async close(): Promise<void> {}
}
