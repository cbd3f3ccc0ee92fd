/**
 * A schedule's results as Prometheus metrics (prom-client; docs/schedules.md lists them): per
 * schedule, peer and direction, the last run's figures, its verdict as an info metric, and counters
 * of the runs by outcome and error code. Label values are bounded: `schedule` and `peer` are what
 * the user configured (`host:port`), `direction` one of two, `verdict` and `case` the diagnosis's
 * own enums, `code` an LH_ERR_* code; nothing a peer says reaches a label.
 */
import { Counter, Gauge, Registry, type OpenMetricsContentType } from 'prom-client';
import type { LonghaulResult } from '../contract/result.js';
import type { ScheduleRunRecord, SchedulePeer } from '../contract/schedule.js';
import { lossShare } from '../contract/udp.js';

/** Where the bytes went, as a label: this PC to the peer, or the peer to this PC. */
const DIRECTION_LABEL = { controllerToResponder: 'to-peer', responderToController: 'from-peer' } as const;
/** An error code as a label: LH_ERR_* only; anything else is `other` (bounded). */
const CODE = /^LH_ERR_[A-Z0-9_]{1,40}$/;

export function peerLabel(p: SchedulePeer): string {
  return `${p.host}:${p.port}`;
}

export class ScheduleMetrics {
  readonly registry = new Registry<OpenMetricsContentType>();
  private readonly throughput: Gauge;
  private readonly rtt: Gauge;
  private readonly retrans: Gauge;
  private readonly udpLoss: Gauge;
  private readonly udpJitter: Gauge;
  private readonly capacity: Gauge;
  private readonly verdict: Gauge;
  private readonly lastRun: Gauge;
  private readonly interval: Gauge;
  private readonly runs: Counter;
  private readonly failedSaves: Counter;
  /** The verdict label set each peer and direction shows now, so a change removes the old one. */
  private readonly shownVerdict = new Map<string, Record<string, string>>();

  constructor() {
    // OpenMetrics text (what Prometheus asks for first), counters with their _total.
    this.registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    const r = [this.registry];
    const pd = ['schedule', 'peer', 'direction'] as const;
    this.throughput = new Gauge({
      name: 'longhaul_throughput_bits_per_second',
      help: "The last run's wall-clock aggregate, payload bits per second (decimal)",
      labelNames: pd,
      registers: r,
    });
    this.rtt = new Gauge({ name: 'longhaul_rtt_seconds', help: "The last run's smoothed RTT as its verdict read it, seconds", labelNames: pd, registers: r });
    this.retrans = new Gauge({ name: 'longhaul_retransmits', help: 'Segments the last run retransmitted (TCP)', labelNames: pd, registers: r });
    this.udpLoss = new Gauge({ name: 'longhaul_udp_loss_ratio', help: 'Datagrams lost ÷ numbered, last UDP run', labelNames: pd, registers: r });
    this.udpJitter = new Gauge({ name: 'longhaul_udp_jitter_seconds', help: 'RFC 3550 jitter of the last UDP run, seconds', labelNames: pd, registers: r });
    this.capacity = new Gauge({
      name: 'longhaul_path_capacity_bits_per_second',
      help: "What Longhaul's own tuned run measured the path to carry (--capacity), payload bits per second",
      labelNames: pd,
      registers: r,
    });
    this.verdict = new Gauge({
      name: 'longhaul_verdict_info',
      help: "The last run's verdict and case (1 for the current one)",
      labelNames: [...pd, 'verdict', 'case'],
      registers: r,
    });
    this.lastRun = new Gauge({
      name: 'longhaul_last_run_timestamp_seconds',
      help: 'When the last run against the peer ended, Unix seconds',
      labelNames: ['schedule', 'peer'],
      registers: r,
    });
    this.interval = new Gauge({
      name: 'longhaul_schedule_interval_seconds',
      help: "Seconds from the schedule's slot under way to its next: its --every, or a cron line's gap now (absent: not running)",
      labelNames: ['schedule'],
      registers: r,
    });
    this.runs = new Counter({
      name: 'longhaul_runs_total',
      help: 'Scheduled runs by outcome (ok, partial, failed) and error code',
      labelNames: ['schedule', 'peer', 'outcome', 'code'],
      registers: r,
    });
    this.failedSaves = new Counter({
      name: 'longhaul_failed_saves_total',
      help: 'Scheduled runs whose result could not be saved to History (a full disk…)',
      labelNames: ['schedule'],
      registers: r,
    });
  }

  /** Told the whole text after every change (the /metrics server's copy: metrics-server.ts). */
  private readonly watchers = new Set<(text: string) => void>();

  /** Call `cb` with the text now and after every test recorded; returns the unsubscribe. */
  watch(cb: (text: string) => void): () => void {
    this.watchers.add(cb);
    void this.text().then(cb);
    return () => this.watchers.delete(cb);
  }

  /** A test of the schedule ended: its record, and its result when there is one. */
  record(rec: ScheduleRunRecord, result: LonghaulResult | null): void {
    this.change(rec, result);
    this.tell();
  }

  /**
   * The schedule's gap between slots now (null: it stopped, is paused or has no slot left). The alert
   * "no test for 3 intervals" reads it (docs/prometheus/longhaul-alerts.yml): a schedule not running
   * here has no series, so no alert says it is late.
   */
  setInterval(schedule: string, seconds: number | null): void {
    setOrRemove(this.interval, { schedule }, seconds);
    this.tell();
  }

  /** A deleted schedule: every series of it goes (an alert would otherwise wait for its next test forever). */
  async forget(schedule: string): Promise<void> {
    for (const g of [
      this.throughput,
      this.rtt,
      this.retrans,
      this.udpLoss,
      this.udpJitter,
      this.capacity,
      this.verdict,
      this.lastRun,
      this.interval,
      this.runs,
      this.failedSaves,
    ])
      for (const v of (await g.get()).values) if (v.labels['schedule'] === schedule) g.remove(v.labels as Record<string, string>);
    for (const key of [...this.shownVerdict.keys()]) if (key.startsWith(`${schedule}\0`)) this.shownVerdict.delete(key);
    this.tell();
  }

  private tell(): void {
    if (this.watchers.size) void this.text().then((t) => this.watchers.forEach((cb) => cb(t)));
  }

  private change(rec: ScheduleRunRecord, result: LonghaulResult | null): void {
    const peer = peerLabel(rec.peer);
    const code = rec.code === null ? '' : CODE.test(rec.code) ? rec.code : 'other';
    this.runs.inc({ schedule: rec.schedule, peer, outcome: rec.outcome, code });
    if (rec.saveError) this.failedSaves.inc({ schedule: rec.schedule });
    this.lastRun.set({ schedule: rec.schedule, peer }, Date.parse(rec.endedAt) / 1000);
    if (!result || result.total.bytes === 0) return;
    for (const d of result.diagnosis ?? []) {
      const labels = { schedule: rec.schedule, peer, direction: DIRECTION_LABEL[d.direction] };
      const total = result.directions[d.direction] ?? result.total;
      setOrRemove(this.throughput, labels, total.bitsPerSecond);
      setOrRemove(this.rtt, labels, d.numbers.rttSeconds);
      setOrRemove(this.retrans, labels, result.params.protocol === 'udp' ? null : d.numbers.retransSegments);
      setOrRemove(this.udpLoss, labels, total.udp ? lossShare(total.udp) : null);
      setOrRemove(this.udpJitter, labels, total.udp?.jitterMs != null ? total.udp.jitterMs / 1000 : null);
      setOrRemove(this.capacity, labels, result.capacity?.payloadBitsPerSecond ?? null);
      const key = `${rec.schedule}\0${peer}\0${labels.direction}`;
      const before = this.shownVerdict.get(key);
      if (before) this.verdict.remove(before);
      const now = { ...labels, verdict: d.verdict, case: d.case ?? 'unknown' };
      this.verdict.set(now, 1);
      this.shownVerdict.set(key, now);
    }
  }

  /** The OpenMetrics text of every metric. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** A figure the run measured, or (unknown) no series: never a 0 that was not measured. */
function setOrRemove(g: Gauge, labels: Record<string, string>, value: number | null | undefined): void {
  if (value === null || value === undefined || !Number.isFinite(value)) g.remove(labels);
  else g.set(labels, value);
}
