/**
 * Longhaul's iperf3 server on Windows (node.exe and the mingw addon under Wine, docs/windows-lane.md):
 * `iperf3 -c -w 8K` (Debian's, on Linux) against `longhaul listen --iperf3 --once`. There the addon
 * owns data connections, and the iperf3 port is taken over for the test's streams
 * (engine/iperf3/iperf3-port-takeover.ts) so the client's window is set on the listener before the streams'
 * handshake. Wine maps Winsock onto Linux sockets, so this machine's kernel shows what the server's
 * sockets advertised: `ss` reads the window scale each accepted stream chose at its handshake.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { HAVE_IPERF3, freePort, runIperf3 } from '../helpers/iperf3.js';
import { laneReady, listening, resultsDirWithSpaces, runWindowsNode, useWindowsLane } from './wine-node.js';

useWindowsLane();

/**
 * The server's stream ends (local port `port`, more than 100 kB received: not the control
 * connection) by peer, with the receive window scale each chose at its handshake (`ss -tni`).
 */
function streamWscales(port: number): Map<string, number> {
  const out = execFileSync('ss', ['-HtniO', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  const found = new Map<string, number>();
  for (const line of out.split('\n')) {
    const peer = line.trim().split(/\s+/)[3];
    const w = /wscale:(\d+),(\d+)/.exec(line);
    const received = Number(/bytes_received:(\d+)/.exec(line)?.[1] ?? 0);
    if (peer && w && received > 100_000) found.set(peer, Number(w[2]));
  }
  return found;
}

async function serve(t: Parameters<typeof laneReady>[0], window: string | null): Promise<{ result: LonghaulResult; wscales: number[]; stdout: string }> {
  const dir = resultsDirWithSpaces(t);
  const port = await freePort();
  const server = runWindowsNode(['bin/longhaul.js', 'listen', '--iperf3', '--port', String(port), '--bind', '127.0.0.1', '--once'], {
    timeoutMs: 90_000,
    env: { LONGHAUL_DATA_DIR: dir.win },
  });
  await listening(port, 60_000);
  const client = runIperf3(['-c', '127.0.0.1', '-p', String(port), '-t', '3', '-P', '2', ...(window ? ['-w', window] : []), '-J'], 60_000);
  // The streams' ends on the server side, with the receive window scale each chose at its handshake: looked
  // for while the client's test runs (until both are seen), not for a fixed time. A fixed 2.5 s from the
  // server's listen failed 3 runs in 5 on a busy machine: the client, Wine's accept and the port takeover
  // had not brought the streams to 100 kB by then.
  const wscales = new Map<string, number>();
  let clientDone = false;
  void client.then(() => (clientDone = true));
  while (!clientDone && wscales.size < 2) {
    for (const [peer, w] of streamWscales(port)) wscales.set(peer, w);
    await new Promise((r) => setTimeout(r, 100));
  }
  const c = await client;
  assert.equal(c.code, 0, `iperf3 -c: ${c.stderr} ${c.json?.error ?? ''}`);
  const s = await server;
  assert.equal(s.code, 0, `listen under Wine: exit ${s.code}\n${s.stdout}\n${s.stderr}`);
  const files = readdirSync(dir.linux).filter((n) => n.endsWith('.json'));
  assert.equal(files.length, 1, `one result in History: ${files.join(', ')}\n${s.stdout}`);
  const result = JSON.parse(readFileSync(path.join(dir.linux, files[0]!), 'utf8')) as LonghaulResult;
  assert.equal(result.total.bytes, c.json?.end?.['sum_received']?.bytes, 'Longhaul counted what iperf3 says the server received');
  return { result, wscales: [...wscales.values()], stdout: s.stdout };
}

describe("iperf3 server under Wine (Windows build): the client's -w", { timeout: 600_000 }, () => {
  it(
    "-w 8K is set on the server's stream ends before their handshake and recorded as applied",
    { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' },
    async (t) => {
      if (!laneReady(t)) return;
      const free = await serve(t, null);
      const w = await serve(t, '8K');
      assert.equal(w.result.window.requestedBytes, 8192);
      const ends = w.result.streams.map((x) => ({ id: x.id, e: x.receive! }));
      assert.equal(ends.length, 2);
      for (const { id, e } of ends) {
        assert.equal(e.io, 'native', `stream ${id}: the addon's Winsock loop`);
        assert.equal(e.socket?.requestedBytes, 8192, `stream ${id}`);
        assert.equal(e.socket?.appliedBeforeHandshake, true, `stream ${id}: ${JSON.stringify(e.socket?.unavailable)}`);
        assert.equal(e.socket?.rcvBufBytes, 8192, `stream ${id}: effective SO_RCVBUF`);
        assert.equal(e.socket?.sndBufBytes, 8192, `stream ${id}: effective SO_SNDBUF`);
      }
      // The kernel's view: with 8 KiB set before listen() the streams' receive window scale is smaller than without.
      console.log(`# server-side receive wscale: no -w ${free.wscales.join(', ')}; -w 8K ${w.wscales.join(', ')}`);
      assert.ok(free.wscales.length === 2 && w.wscales.length === 2, `ss saw the server's stream ends (${free.wscales}; ${w.wscales})`);
      assert.ok(Math.max(...w.wscales) < Math.min(...free.wscales), `wscale with -w 8K (${w.wscales}) below the default (${free.wscales})`);
    },
  );
});
