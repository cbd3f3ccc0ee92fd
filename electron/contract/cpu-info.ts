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
  /**
   * Seconds the thread was ready to run but waited for a core over the same span (Linux schedstat
   * run-queue wait, which includes time a CPU quota held it back); null where the OS does not say,
   * absent in older results. (cpuSeconds + waitSeconds) ÷ wall near 1 with waitSeconds the larger: the
   * thread always had work and was starved of CPU.
   */
  waitSeconds?: number | null;
}

/**
 * The whole PC's cores over a side's transfer: work charged to no Longhaul thread shows here (the
 * kernel's packet processing in softirq, the other end when both run on this PC, other programs,
 * and on a VM the time the hypervisor gave to other guests).
 */
export interface PcCpu {
  /**
   * Busy time of all cores ÷ all their time over the transfer (0-1; 1 = every core busy throughout).
   * Linux (/proc/stat differences): (user + nice + system + irq + softirq + steal) ÷ (those + idle + iowait);
   * elsewhere (os.cpus()): (user + nice + sys + irq) ÷ (those + idle).
   */
  busyShare: number;
  /** irq + softirq ÷ all the cores' time (Linux: interrupts and the kernel's packet processing); null where the OS does not count it apart. */
  interruptShare: number | null;
  /** steal ÷ all the cores' time (a VM's cores taken by the hypervisor); null where the OS does not count it. */
  stealShare: number | null;
  /** Where the figures come from. */
  source: 'proc-stat' | 'os-cpus';
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
  /** The whole PC's cores over the same transfer; null when this OS did not say, absent in older results and from iperf3 ends. */
  pc?: PcCpu | null;
}

/** CPU per side over the transfer; a side is null when it sent no figures (an older peer, iperf3 without them). */
export interface CpuInfo {
  controller: CpuUse | null;
  responder: CpuUse | null;
  /**
   * Whether both ends ran on this PC, as the side that wrote the document saw its peer's address: true
   * when it is a loopback address or one of this PC's own (both ends then share its cores and network
   * stack), false when it is not (another PC, or another network namespace or container), null when it
   * cannot be told (a host name other than this PC's). Absent in older results.
   */
  samePc?: boolean | null;
}
