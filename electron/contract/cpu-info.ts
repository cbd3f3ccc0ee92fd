/**
 * CPU per side and per native data thread over a run's transfer, as `longhaul.result/1` records it
 * (part of result.ts, which re-exports these types). docs/results.md, "cpu".
 */

/** One data thread's CPU time (a native sender or reader thread): what it costs to move this run's bytes on this PC. */
export interface DataThreadCpu {
  kind: 'sender' | 'receiver';
  /** The stream ids this thread served. */
  streams: number[];
  /** User + system CPU time of the thread over the transfer, seconds (Linux CLOCK_THREAD_CPUTIME_ID, Windows GetThreadTimes, macOS thread_info). */
  cpuSeconds: number;
  /** cpuSeconds ÷ the transfer's wall-clock seconds: 1 = one core kept fully busy. */
  shareOfOneCore: number;
}

/** One side's CPU use over the transfer (process and data threads), or why it is unknown. */
export interface CpuUse {
  /** User and system CPU time of the whole Longhaul process tree serving this role (process.cpuUsage and its data workers), seconds. */
  userSeconds: number;
  systemSeconds: number;
  /** Wall-clock seconds the figures cover (the transfer). */
  wallSeconds: number;
  /** Logical cores of this PC (os.availableParallelism). */
  cores: number;
  /** (user + system) ÷ wall: 1 = one core fully busy. */
  shareOfOneCore: number;
  /**
   * shareOfOneCore ÷ cores: 1 = the whole PC busy. (iperf3's `cpu_util_total` is shareOfOneCore in
   * percent: its cpu_util() divides the process's CPU time by the wall time, not by the cores.)
   */
  shareOfPc: number;
  /**
   * false when the end did not say how many cores it has (an iperf3 end: its results carry only
   * percentages): `cores` is then 1 and `shareOfPc` equals `shareOfOneCore`. Absent: counted.
   */
  coresKnown?: false;
  /** Each native data thread's share; null where the Node path moved the bytes (no thread of its own) or the OS does not say. */
  threads: DataThreadCpu[] | null;
}

/** CPU per side over the transfer; a side is null when it sent no figures (an older peer, iperf3 without them). */
export interface CpuInfo {
  controller: CpuUse | null;
  responder: CpuUse | null;
}
