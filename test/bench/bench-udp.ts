/**
 * `npm run bench:udp`: how exactly each sender keeps a UDP rate on loopback, as ratios to the rate
 * asked, in one run alternating the three: Longhaul's native sender (native/src/udp_send.cc),
 * Longhaul on Node's dgram (LONGHAUL_DATA_PATH=node), and iperf3 -u. Per round and rate: what the
 * sender sent ÷ asked, what arrived ÷ asked, the share lost, and who lost it (Longhaul: the
 * receiving socket's own drops). Run it on a quiet machine: a build or a test beside it is noise.
 *
 *   npm run bench:udp                       # -b 100M and 1G, 3 rounds of 3 s
 *   npm run bench:udp -- --rates 500M,1G --rounds 5 --seconds 4
 *   IPERF3=/opt/iperf-3.21/bin/iperf3 npm run bench:udp
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { parseRate } from '../../electron/contract/units.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { BIN } from '../helpers/processes.js';

const run = promisify(execFile);

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const RATES = arg('--rates', '100M,1G').split(',');
const ROUNDS = Math.max(1, Math.min(20, Number(arg('--rounds', '3')) || 3));
const SECONDS = Math.max(1, Math.min(30, Number(arg('--seconds', '3')) || 3));
const IPERF3 = process.env.IPERF3 ?? 'iperf3';
const DATAGRAM = 1460;
/** Every child is bounded: the run's seconds plus set-up and the results exchange. */
const TIMEOUT_MS = (SECONDS + 20) * 1000;

interface Row {
  who: string;
  sent: number | null;
  arrived: number | null;
  lostPercent: number | null;
  note: string;
}

async function longhaul(rate: string, asked: number, env: NodeJS.ProcessEnv, who: string): Promise<Row> {
  const args = [BIN, 'loopback', '-u', '-b', rate, '-l', String(DATAGRAM), '-w', '4M', '-t', String(SECONDS), '-J'];
  const { stdout } = await run(process.execPath, args, { env: { ...process.env, ...env }, timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
  const r = JSON.parse(stdout) as LonghaulResult;
  const u = r.total.udp;
  const s = r.streams[0];
  const sentDatagrams = r.streams.reduce((a, x) => a + (x.udp?.sentDatagrams ?? 0), 0);
  const lost = u ? u.lost : null;
  return {
    who: `${who} (${s?.send?.io ?? 'unknown'})`,
    sent: (sentDatagrams * DATAGRAM * 8) / SECONDS / asked,
    arrived: (r.total.bitsPerSecond ?? 0) / asked,
    lostPercent: u && lost !== null ? (100 * lost) / Math.max(1, u.datagrams + lost) : null,
    note: u?.receiverDrops != null ? `receiving socket dropped ${u.receiverDrops}` : '',
  };
}

async function iperf3(rate: string, asked: number): Promise<Row> {
  const port = 5299;
  const server = spawn(IPERF3, ['-s', '-1', '-p', String(port)], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const args = ['-c', '127.0.0.1', '-p', String(port), '-u', '-b', rate, '-l', String(DATAGRAM), '-w', '4M', '-t', String(SECONDS), '-J'];
    const { stdout } = await run(IPERF3, args, { timeout: TIMEOUT_MS, maxBuffer: 64 << 20 });
    const j = JSON.parse(stdout) as { end: { sum: { bits_per_second: number; lost_percent: number }; sum_received?: { bits_per_second: number } } };
    return { who: 'iperf3', sent: j.end.sum.bits_per_second / asked, arrived: null, lostPercent: j.end.sum.lost_percent, note: "iperf3's sender's rate" };
  } finally {
    server.kill();
  }
}

const f = (x: number | null, d = 3): string => (x === null ? '   —  ' : x.toFixed(d));

for (const rate of RATES) {
  const parsed = parseRate(rate);
  if (!parsed.ok) throw new Error(`--rates: ${rate}: ${parsed.error}`);
  const asked = parsed.value;
  console.log(`\n-b ${rate} (${DATAGRAM}-byte datagrams, ${SECONDS} s, -w 4M), ratios to the rate asked:`);
  console.log('round  sender                         sent    arrived  lost %  note');
  for (let round = 1; round <= ROUNDS; round++) {
    for (const measure of [
      () => longhaul(rate, asked, {}, 'Longhaul'),
      () => longhaul(rate, asked, { LONGHAUL_DATA_PATH: 'node' }, 'Longhaul'),
      () => iperf3(rate, asked),
    ]) {
      const row = await measure().catch((err: Error): Row => ({
        who: 'failed',
        sent: null,
        arrived: null,
        lostPercent: null,
        note: err.message.split('\n')[0] ?? '',
      }));
      console.log(
        `${String(round).padStart(5)}  ${row.who.padEnd(29)}  ${f(row.sent)}  ${f(row.arrived).padStart(7)}  ${f(row.lostPercent, 2).padStart(6)}  ${row.note}`,
      );
    }
  }
}
