/**
 * `npm run bench`: longhaul loopback against iperf3 (Debian) on this machine, same
 * stream count, duration and write size, alternating, several rounds. Prints each
 * pair's ratio longhaul/iperf3 and CPU seconds per GB for both. Not a test: it
 * asserts nothing and is never run by CI.
 *
 *   npm run bench -- [--seconds 5] [--rounds 3] [--configs 1x128K,1x1M,2x128K,2x1M] [--longhaul-args '--workers 1']
 *                    [--longhaul-env 'LONGHAUL_DATA_CONN=owned']   (set for both longhaul ends, e.g. the Windows data path)
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseSize } from '../../electron/util/units.js';
import { childEnded } from '../helpers/child-exit.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

interface Measured {
  bitsPerSecond: number;
  bytes: number;
  cpuSeconds: number;
}

/** Run a shell command; return stdout and the CPU seconds (user+sys) of everything it started. */
function timed(command: string, timeoutMs: number): Promise<{ stdout: string; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${command}; rc=$?; echo "::times"; times; exit $rc`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    void childEnded(child).then(({ code }) => {
      clearTimeout(timer);
      const [stdout, times = ''] = out.split('::times\n');
      const lines = times.trim().split('\n');
      const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines[1] ?? '');
      const cpuSeconds = m ? Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]) : NaN;
      if (code !== 0) return reject(new Error(`${command} exited ${code}\n${stdout}`));
      resolve({ stdout: stdout ?? '', cpuSeconds });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function iperf3(streams: number, len: number, seconds: number): Promise<Measured> {
  const port = await freePort();
  const server = timed(`iperf3 -s -1 -B 127.0.0.1 -p ${port} >/dev/null`, (seconds + 30) * 1000);
  await new Promise((r) => setTimeout(r, 300));
  const client = await timed(`iperf3 -c 127.0.0.1 -p ${port} -t ${seconds} -l ${len} -P ${streams} -J`, (seconds + 30) * 1000);
  const s = await server;
  const j = JSON.parse(client.stdout) as { end: { sum_received: { bits_per_second: number; bytes: number } } };
  return { bitsPerSecond: j.end.sum_received.bits_per_second, bytes: j.end.sum_received.bytes, cpuSeconds: client.cpuSeconds + s.cpuSeconds };
}

async function longhaul(streams: number, len: number, seconds: number, extra = '', envPrefix = ''): Promise<Measured> {
  const port = await freePort();
  const file = path.join(os.tmpdir(), `longhaul-bench-${process.pid}.json`);
  const node = process.execPath;
  const workers = /--workers \d+/.exec(extra)?.[0] ?? '';
  const server = timed(`${envPrefix} ${node} ${BIN} listen --once --bind 127.0.0.1 --port ${port} ${workers} >/dev/null`, (seconds + 30) * 1000);
  await new Promise((r) => setTimeout(r, 500));
  const client = await timed(
    `${envPrefix} CI=true ${node} ${BIN} run 127.0.0.1:${port} -t ${seconds} -l ${len} -P ${streams} ${extra} --json ${file} >/dev/null`,
    (seconds + 30) * 1000,
  );
  const s = await server;
  const j = JSON.parse(await readFile(file, 'utf8')) as { total: { bitsPerSecond: number; bytes: number } };
  await rm(file, { force: true });
  return { bitsPerSecond: j.total.bitsPerSecond, bytes: j.total.bytes, cpuSeconds: client.cpuSeconds + s.cpuSeconds };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'longhaul-args': { type: 'string', default: '' },
      'longhaul-env': { type: 'string', default: '' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      configs: { type: 'string', default: '1x128K,1x1M,2x128K,2x1M' },
    },
  });
  const seconds = Number(values.seconds);
  const envPrefix = values['longhaul-env']!.split(/\s+/)
    .filter((kv) => /^[A-Z_][A-Z0-9_]*=[\w.,-]*$/.test(kv))
    .join(' ');
  const rounds = Number(values.rounds);
  const configs = values.configs!.split(',').map((c) => {
    const [p, l] = c.split('x');
    return { streams: Number(p), len: parseSize(l!) };
  });
  console.log(
    `longhaul loopback vs iperf3 (${(await timed('iperf3 --version | head -1', 5000)).stdout.trim()}), ${seconds} s per run, ${rounds} rounds, ${os.availableParallelism()} CPUs${envPrefix ? `, longhaul with ${envPrefix}` : ''}`,
  );
  console.log('rates are received bytes over wall-clock time; CPU is user+sys of both ends, all processes\n');
  const rows: string[] = [];
  for (const c of configs) {
    const ratios: number[] = [];
    const lh: Measured[] = [];
    const ip: Measured[] = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first so drift in machine state does not favour one.
      const pair =
        r % 2 === 0
          ? [await iperf3(c.streams, c.len, seconds), await longhaul(c.streams, c.len, seconds, values['longhaul-args'], envPrefix)]
          : [undefined, await longhaul(c.streams, c.len, seconds, values['longhaul-args'], envPrefix)];
      const i = pair[0] ?? (await iperf3(c.streams, c.len, seconds));
      const l = pair[1]!;
      ip.push(i);
      lh.push(l);
      ratios.push(l.bitsPerSecond / i.bitsPerSecond);
      console.log(
        `  -P ${c.streams} -l ${c.len}: round ${r + 1}: iperf3 ${(i.bitsPerSecond / 1e9).toFixed(2)} Gbit/s, longhaul ${(l.bitsPerSecond / 1e9).toFixed(2)} Gbit/s, ratio ${(l.bitsPerSecond / i.bitsPerSecond).toFixed(3)}`,
      );
    }
    const cpuPerGB = (ms: Measured[]): number => median(ms.map((m) => m.cpuSeconds / (m.bytes / 1e9)));
    rows.push(
      `${`-P ${c.streams} -l ${c.len / 1024}K`.padEnd(16)}${median(ratios).toFixed(3).padStart(8)}   ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}` +
        `${cpuPerGB(ip).toFixed(3).padStart(14)}${cpuPerGB(lh).toFixed(3).padStart(16)}${(cpuPerGB(lh) / cpuPerGB(ip)).toFixed(2).padStart(12)}`,
    );
  }
  console.log(`\n${'config'.padEnd(16)}${'ratio'.padStart(8)}   range        iperf3 CPU s/GB  longhaul CPU s/GB  CPU ratio`);
  for (const r of rows) console.log(r);
  console.log('\nratio = longhaul / iperf3 throughput (median over rounds). Targets: 1 stream >= 1.0, 2 streams >= 1.1.');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
