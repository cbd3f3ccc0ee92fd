/** Test helpers for runs against Debian's iperf3 (/usr/bin/iperf3): processes bounded in time, always killed. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { childEnded } from './child-exit.js';

const IPERF3 = '/usr/bin/iperf3';
export const HAVE_IPERF3 = existsSync(IPERF3);

export interface Iperf3Exit {
  code: number | null;
  stdout: string;
  stderr: string;
  json: Iperf3Json | null;
}

/** The parts of iperf3's -J output the tests read. */
export interface Iperf3Json {
  error?: string;
  start?: { version?: string; cookie?: string };
  end?: Record<string, { bytes: number; bits_per_second: number; seconds: number } | undefined>;
  /** Per interval, this iperf3's own streams: `sum` (the only direction, or the client's sending one in --bidir) and `sum_bidir_reverse`. */
  intervals?: { sum?: { start: number; end: number; bytes: number }; sum_bidir_reverse?: { start: number; end: number; bytes: number } }[];
}

/** Run iperf3 (`bin`: another build) with `args` (killed after `ms`); resolves when it exits, with its JSON when it printed some. */
export function runIperf3(args: string[], ms: number, bin = IPERF3): Promise<Iperf3Exit> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    void childEnded(child).then(({ code }) => {
      clearTimeout(timer);
      let json: Iperf3Json | null = null;
      try {
        json = JSON.parse(stdout) as Iperf3Json;
      } catch {
        // not JSON (a text run, or killed mid-output)
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** A TCP port free on 127.0.0.1 right now (for an iperf3 -s that cannot take port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * `iperf3 -s -1` on 127.0.0.1:port with JSON output; resolves once it listens, with its exit
 * (in an object: an async function returning the promise itself would wait for it).
 */
export async function startIperf3Server(port: number, ms: number, bin = IPERF3): Promise<{ exit: Promise<Iperf3Exit> }> {
  const exit = runIperf3(['-s', '-1', '-B', '127.0.0.1', '-p', String(port), '-J'], ms, bin);
  const deadline = Date.now() + 5000;
  for (;;) {
    // Not probed by connecting: a connection that sends no cookie would be iperf3 -1's one test.
    const up = listensOn(port);
    if (up) return { exit };
    if (Date.now() > deadline) throw new Error(`iperf3 -s did not listen on ${port} within 5 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether some socket listens on TCP `port` (Linux: /proc/net/tcp, state 0A). */
function listensOn(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .some((line) => {
      const f = line.trim().split(/\s+/);
      return f[1]?.endsWith(`:${hex}`) && f[3] === '0A';
    });
}
