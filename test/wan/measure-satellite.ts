/**
 * Re-measures the satellite link's figures (docs/proxy.md) on the kernel WAN harness and prints
 * them with the model and the ratios: 4 Mbit/s each way, 650 ms each way.
 *   issue: ping RTT 1302 ms; iperf3 -w 8760 → 48 kbit/s; iperf3 -w 650000 →
 *   3.67 Mbit/s after an ~8 s ramp.
 * Needs root (about 70 s, light CPU). `npm run wan:satellite`.
 */
import { modelCeilingBitsPerSec, modelRttSeconds } from './link-config.js';
import { wanSkipReason } from './preflight.js';
import { iperfAtoB, pingAtoB } from './probes.js';
import { createWanLink } from './wan-link.js';

const RATE = 4_000_000;

function kbit(v: number): string {
  return `${(v / 1e3).toFixed(1)} kbit/s`;
}

async function main(): Promise<void> {
  const skip = await wanSkipReason(['iperf3', 'ping']);
  if (skip) {
    process.stderr.write(`cannot measure: ${skip}\n`);
    process.exitCode = 1;
    return;
  }
  const link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: 650 });
  try {
    const rtt = modelRttSeconds(link.config);
    const ping = await pingAtoB(link, 5, 0.2);
    process.stdout.write(
      `ping: avg ${ping.avgMs.toFixed(1)} ms (min ${ping.minMs}, max ${ping.maxMs}) vs 2 × delay ${rtt * 1000} ms, ratio ${(ping.avgMs / (rtt * 1000)).toFixed(4)}; issue: 1302 ms\n`,
    );

    const small = await iperfAtoB(link, { seconds: 20, omitSeconds: 3, windowBytes: 8760 });
    const smallModel = modelCeilingBitsPerSec(RATE, 8760, rtt);
    process.stdout.write(
      `iperf3 -w 8760: ${kbit(small.receivedBitsPerSec)} vs window/RTT ${kbit(smallModel)}, ratio ${(small.receivedBitsPerSec / smallModel).toFixed(3)}; issue: 48 kbit/s\n`,
    );

    const big = await iperfAtoB(link, { seconds: 20, windowBytes: 650_000 });
    const bigModel = modelCeilingBitsPerSec(RATE, 650_000, rtt);
    const perSecond = big.intervalBitsPerSec.map((b) => (b / 1e6).toFixed(2)).join(' ');
    const steady = big.intervalBitsPerSec.slice(10);
    const steadyAvg = steady.reduce((s, v) => s + v, 0) / Math.max(1, steady.length);
    const median = [...steady].sort((x, y) => x - y)[Math.floor(steady.length / 2)] ?? 0;
    const reach = big.intervalBitsPerSec.findIndex((b) => b >= 0.9 * bigModel);
    process.stdout.write(`iperf3 -w 650000, Mbit/s per second: ${perSecond}\n`);
    process.stdout.write(
      `  first second at ≥ 90 % of the model: ${reach < 0 ? 'never' : `${reach + 1}`}; seconds 11-20: ${kbit(steadyAvg)} vs model ${kbit(bigModel)} (ratio ${(steadyAvg / bigModel).toFixed(3)}), vs rate ${(steadyAvg / RATE).toFixed(3)}; median ${kbit(median)}; issue: 3.67 Mbit/s after ~8 s\n`,
    );
    const rto = await link.execInA('nstat', ['-az', 'TcpExtTCPTimeouts']);
    const timeouts = /TcpExtTCPTimeouts\s+(\d+)/.exec(rto.stdout)?.[1] ?? 'unknown';
    process.stdout.write(
      `retransmits: ${big.retransmits}; retransmission timeouts in A: ${timeouts}; router drops: ${JSON.stringify(await link.counters())}\n`,
    );
  } finally {
    await link.destroy();
    process.stdout.write(`delay helper: ${JSON.stringify(link.delayStats)}\n`);
  }
}

await main();
