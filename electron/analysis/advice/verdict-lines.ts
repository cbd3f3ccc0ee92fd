/**
 * Advice for the verdicts no buffer setting moves: the path itself (link-limited, bufferbloat),
 * loss, a congestion window still growing, a CPU, a receiving application that did not keep up.
 * Each names what to do and on which end; none sizes a buffer, because a buffer is not the limit.
 */
import type { AdviceTopic } from '../../contract/advice.js';
import type { Diagnosis, LonghaulResult, Side } from '../../contract/result.js';
import type { AdviceLine } from './os-rules.js';

/** One advice line with the topic and the end that must act. */
interface VerdictAdvice {
  topic: AdviceTopic;
  end: 'sender' | 'receiver';
  line: AdviceLine;
}

function bbrLine(linux: boolean): AdviceLine {
  return {
    setting: 'the congestion control of the sending PC',
    currentValue: null,
    neededValue: linux
      ? 'BBR with the fq queueing discipline'
      : "a congestion control that does not halve its rate on each loss (on Linux: BBR with fq); this OS's options vary",
    ...(linux ? { command: 'sudo sysctl -w net.core.default_qdisc=fq net.ipv4.tcp_congestion_control=bbr' } : {}),
    how: linux
      ? 'sudo sysctl -w net.core.default_qdisc=fq net.ipv4.tcp_congestion_control=bbr (new connections only); to keep it, the same lines in /etc/sysctl.d/90-longhaul.conf'
      : 'see the OS documentation for its congestion control settings',
    why: 'A loss-based sender (Reno, CUBIC) slows down on every loss whatever caused it; BBR paces at the rate it measures.',
  };
}

function lossLine(): AdviceLine {
  return {
    setting: 'the path: where the packets are lost',
    currentValue: null,
    neededValue: 'no loss on an uncongested path: look for a faulty cable or port, Wi-Fi, a policer, or a full queue',
    how: 'interface error counters on both PCs and the switches between (ip -s link, netstat -e), then the same run with fewer hops',
    why: 'Packet loss caps a loss-based sender at about MSS × 1.22 ÷ (RTT × √loss) whatever its window.',
  };
}

function pathLine(bloat: boolean, streams: number): AdviceLine {
  return bloat
    ? {
        setting: "the bottleneck's queue (a router, modem or shaper on the path)",
        currentValue: null,
        neededValue: 'a queue managed to a few ms (fq_codel or CAKE), or a sender that does not fill queues (BBR)',
        how: 'on a Linux router: tc qdisc replace dev <interface> root fq_codel (or cake bandwidth <rate>); elsewhere the device\'s "SQM" or "smart queue" setting',
        why: 'The link is the limit and its queue adds the delay stated: other traffic on it waits that long too. A managed queue keeps the rate and drops the delay.',
      }
    : {
        setting: 'the path itself (its slowest link)',
        currentValue: null,
        neededValue: 'nothing on either PC: a faster link, or a share of it taken from other traffic',
        how: `to confirm, run again with more streams (now ${streams}): if the total stays, the link is full`,
        runFlags: `-P ${Math.max(4, streams * 2)}`,
        why: 'The sender kept the socket full and no window, buffer or loss held it back: the path carried what it can.',
      };
}

function runLine(seconds: number | null): AdviceLine {
  return {
    setting: "this run's length",
    currentValue: seconds === null ? null : `${seconds} s`,
    neededValue: 'long enough for the congestion window to stop growing: several times the slow-start ramp (at least 10 s, more on a long RTT)',
    how: 'longhaul run <partner> -t 30, or more streams (-P 4) so each needs a smaller window',
    runFlags: '-t 30',
    why: 'The congestion window was still growing when the run ended, with no loss: a longer run shows what the path carries.',
    control: { kind: 'seconds', seconds: 30, streams: 4 },
  };
}

function cpuLine(side: Side | null, streams: number): AdviceLine {
  return {
    setting: `the CPU of ${side ? `the ${side}` : 'the busiest PC'}`,
    currentValue: null,
    neededValue: 'the bytes spread over more cores, or less other load on the PC',
    how: 'run again with more streams (-P 4) so more data threads share the work; close other programs; on a VM, give it more cores',
    runFlags: '-P 4',
    why: 'A core fully busy copying bytes sets the rate whatever the window: no TCP setting changes that.',
    control: { kind: 'streams', streams: 4, now: streams },
  };
}

/** Both ends on one PC with its cores busy: what the run measured is this PC, not a network. */
function onePcLine(streams: number, cores: number | null, busyShare: number | null): AdviceLine {
  const busy = busyShare !== null ? `, ${Math.round(busyShare * 100)} % busy` : '';
  return {
    setting: "this PC's CPU, shared by both ends and the kernel (both ends ran on it)",
    currentValue: cores !== null ? `both ends on its ${cores} cores${busy}` : null,
    neededValue: 'the two ends on two PCs (on one PC, the rate is what its cores can copy)',
    longhaulCommand: 'longhaul listen on a second PC, then here: longhaul run <that PC>',
    how: `longhaul listen on a second PC and longhaul run <that PC> from this one; here, run again with -P ${streams === 1 ? Math.max(2, cores ?? 2) : 1} (now ${streams}): a total that stays is this PC's limit`,
    why: "Sender, receiver and the kernel's copying took turns on the same cores: this is Longhaul's and this PC's limit, not the network's. No TCP setting or buffer changes it.",
    control: { kind: 'second-pc', streams: streams === 1 ? Math.max(2, cores ?? 2) : 1, now: streams },
  };
}

function receiverLine(starved: boolean): AdviceLine {
  return {
    setting: 'the receiving application and its CPU (not its buffers)',
    currentValue: null,
    neededValue: starved
      ? 'the CPU the reading application needs: no quota below it, or less other work on that PC'
      : 'an application that reads as fast as data arrives',
    how: starved
      ? "check the receiving process's CPU limits (a container's or cgroup's CPU quota, nice level, a VM's share) and the PC's load during a run"
      : "check the receiving PC's CPU load during a run; for other applications, whatever slows their reads (disk writes, processing, a CPU quota)",
    why: starved
      ? 'Its reader always had data to read but mostly waited for a core: the CPU it was given set the rate. No buffer or TCP setting changes that.'
      : 'Its receive buffer had room for a larger window, but unread data filled it: a larger buffer would fill the same way.',
  };
}

/** The advice a verdict calls for that is not an OS buffer setting; [] when it has none here. */
export function verdictLines(d: Diagnosis, r: LonghaulResult, streams: number, linux: boolean, cpuSide: Side | null): VerdictAdvice[] {
  switch (d.verdict) {
    case 'link-limited': {
      const bloat = d.case === 'link-limited/bufferbloat';
      return [
        { topic: 'path', end: 'sender', line: pathLine(bloat, streams) },
        ...(bloat ? [{ topic: 'congestion-control' as const, end: 'sender' as const, line: bbrLine(linux) }] : []),
      ];
    }
    case 'loss-limited':
      return [
        { topic: 'congestion-control', end: 'sender', line: bbrLine(linux) },
        { topic: 'path', end: 'sender', line: lossLine() },
      ];
    case 'congestion-limited':
      return [{ topic: 'run', end: 'sender', line: runLine(r.params.seconds) }];
    case 'cpu-limited':
      if (d.case === 'cpu-limited/same-pc') {
        const cores = r.cpu?.controller?.cores ?? r.cpu?.responder?.cores ?? null;
        return [{ topic: 'cpu', end: 'sender', line: onePcLine(streams, cores, d.figures?.pcBusyShare?.value ?? null) }];
      }
      return [{ topic: 'cpu', end: 'sender', line: cpuLine(cpuSide, streams) }];
    case 'receiver-limited':
      return [{ topic: 'application', end: 'receiver', line: receiverLine(d.case === 'receiver-limited/cpu-starved') }];
    default:
      return [];
  }
}
