/**
 * iperf3's UDP both ways against the real thing (Debian's iperf3 3.12) on 127.0.0.1 (issue 38, item 4):
 * `iperf3 -c -u -J` → Longhaul's iperf3 server, and Longhaul's iperf3 client → `iperf3 -s -J`, forward,
 * reverse and --bidir. The end that receives counts (its RFC 3550 jitter, its lost datagrams); the other
 * end's figures are the ones it was told in the results exchange, so both must print the same loss and
 * jitter. Longhaul counts the tail after the last arrival from the sender's count; iperf3 does not,
 * so where iperf3 counted, the losses differ by exactly that tail (test/helpers/udp-loss-law.ts). Every datagram is accounted for: the
 * receiver's arrived + lost equals the sender's count. Nothing is asserted about loss itself: a busy
 * loopback may drop datagrams when a receiver's socket buffer overflows (200 KB: 100 ms at 20 Mbit/s).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { UdpCounts } from '../../electron/contract/udp.js';
import type { Direction } from '../../electron/protocol/run-params.js';
import { startIperf3Run } from '../../electron/engine/iperf3/iperf3-client.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import { assertUdpLossLaw } from '../helpers/udp-loss-law.js';
import { HAVE_IPERF3, freePort, runIperf3, startIperf3Server } from '../helpers/iperf3.js';

const SECONDS = 2;
const RATE = 20_000_000;
const DATAGRAM = 1200;

interface UdpSum {
  bytes: number;
  jitter_ms: number;
  lost_packets: number;
  packets: number;
  lost_percent: number;
}

/** iperf3's -J end, UDP: per stream and the sums. */
type UdpEnd = Record<string, UdpSum | undefined> & { streams?: { udp?: UdpSum & { sender: boolean } }[] };

const CASES: { streams: number; direction: Direction }[] = [
  { streams: 2, direction: 'forward' },
  { streams: 2, direction: 'reverse' },
  { streams: 1, direction: 'bidir' },
];

type Key = 'controllerToResponder' | 'responderToController';

function keysOf(direction: Direction): Key[] {
  return [...(direction !== 'reverse' ? ['controllerToResponder' as const] : []), ...(direction !== 'forward' ? ['responderToController' as const] : [])];
}

/** Longhaul's UDP totals of one direction (its streams' counts summed, jitter their mean as iperf3's sum line). */
function mine(r: LonghaulResult, key: Key): UdpCounts & { sent: number } {
  const sender = key === 'controllerToResponder' ? 'controller' : 'responder';
  const udp = r.streams.filter((s) => s.sender === sender).map((s) => s.udp);
  assert.ok(udp.length && udp.every((u) => u), `${key}: every stream has UDP figures`);
  const all = udp as NonNullable<(typeof udp)[number]>[];
  const jitters = all.map((u) => u.jitterMs).filter((j): j is number => j !== null);
  return {
    datagrams: all.reduce((a, u) => a + u.datagrams, 0),
    bytes: all.reduce((a, u) => a + u.bytes, 0),
    lost: all.reduce((a, u) => a + u.lost, 0),
    outOfOrder: null,
    duplicates: null,
    jitterMs: jitters.length ? jitters.reduce((a, j) => a + j, 0) / jitters.length : null,
    sent: all.reduce((a, u) => a + (u.lastSeq ?? NaN), 0),
  };
}

/** The two ends' figures for one direction agree: bytes exactly, loss by who counted (helpers/udp-loss-law), jitter within 10 %. */
function agree(lines: string[], label: string, m: ReturnType<typeof mine>, received: UdpSum, counter: 'longhaul' | 'iperf3'): void {
  assert.ok(m.sent >= 0.5 * ((RATE / 8 / DATAGRAM) * SECONDS), `${label}: about the asked rate was sent (${m.sent} datagrams)`);
  assert.equal(m.bytes, received.bytes, `${label}: bytes received agree exactly`);
  assertUdpLossLaw(label, { datagrams: m.datagrams, lost: m.lost, lastSeq: m.sent }, received, counter);
  assert.ok(m.jitterMs !== null && m.jitterMs > 0, `${label}: a jitter was measured`);
  const ratio = m.jitterMs / received.jitter_ms;
  assert.ok(Math.abs(ratio - 1) <= 0.1, `${label}: jitter within 10 % (Longhaul ${m.jitterMs} ms, iperf3 ${received.jitter_ms} ms)`);
  lines.push(
    `${label}: ${m.datagrams}+${m.lost} of ${m.sent} datagrams, loss ${received.lost_percent} %, jitter ${m.jitterMs.toFixed(4)} ms vs ${received.jitter_ms.toFixed(4)} ms`,
  );
}

function iperfArgs(c: (typeof CASES)[number]): string[] {
  return [
    '-u',
    '-b',
    String(RATE),
    '-l',
    String(DATAGRAM),
    '-t',
    String(SECONDS),
    '-P',
    String(c.streams),
    ...(c.direction === 'reverse' ? ['-R'] : c.direction === 'bidir' ? ['--bidir'] : []),
  ];
}

describe("iperf3's UDP both ways on loopback (Debian iperf3)", { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3', timeout: 180_000 }, () => {
  const report: string[] = [];
  after(() => console.log(report.join('\n')));

  for (const c of CASES) {
    const label = `-u -P ${c.streams} ${c.direction}`;
    it(`iperf3 -c ${label} → longhaul's iperf3 server: both print the same loss and jitter`, { timeout: 30_000 }, async (t) => {
      const server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
      t.after(() => server.close());
      const { port } = await server.listen();
      const ended = new Promise<LonghaulResult | null>((resolve) => server.once('session-end', (result) => resolve(result)));
      const client = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-J', ...iperfArgs(c)], 20_000);
      const result = await ended;
      assert.equal(client.code, 0, client.stderr);
      assert.equal(client.json?.error, undefined, `no error in iperf3's JSON: ${client.json?.error}`);
      assert.ok(result && !result.partial, `a complete result: ${result?.partialReason}`);
      assert.equal(result.params.protocol, 'udp');
      const end = client.json?.end as unknown as UdpEnd;
      for (const key of keysOf(c.direction)) {
        const tail = c.direction === 'bidir' && key === 'responderToController' ? '_bidir_reverse' : '';
        const received = end[`sum_received${tail}`];
        assert.ok(received, `iperf3 printed sum_received${tail}`);
        agree(report, `server ${label} ${key}`, mine(result, key), received, key === 'controllerToResponder' ? 'longhaul' : 'iperf3');
      }
    });

    it(`longhaul's iperf3 client ${label} → iperf3 -s: both print the same loss and jitter`, { timeout: 30_000 }, async () => {
      const port = await freePort();
      const { exit } = await startIperf3Server(port, 20_000);
      const run = startIperf3Run({
        host: '127.0.0.1',
        port,
        params: {
          streams: c.streams,
          bufferBytes: DATAGRAM,
          windowBytes: null,
          bytes: null,
          seconds: SECONDS,
          direction: c.direction,
          intervalSeconds: 1,
          bitrateBitsPerSec: RATE,
          protocol: 'udp',
        },
      });
      const result = await run.result;
      const server = await exit;
      assert.equal(server.code, 0, server.stderr);
      assert.equal(server.json?.error, undefined, `no error in iperf3 -s's JSON: ${server.json?.error}`);
      assert.ok(!result.partial, result.partialReason ?? '');
      assert.match(result.responder.software, /^iperf3 3\.\d+/);
      const streams = (server.json?.end as unknown as UdpEnd).streams ?? [];
      for (const key of keysOf(c.direction)) {
        // iperf3 -s's own streams: the receiving ones (sender false) counted the controller's datagrams.
        const theirs = streams.map((s) => s.udp).filter((u): u is UdpSum & { sender: boolean } => !!u && u.sender === (key === 'responderToController'));
        assert.equal(theirs.length, c.streams, `${key}: iperf3 -s reported its streams`);
        const m = mine(result, key);
        if (key === 'controllerToResponder') {
          // iperf3 counted: its loss and jitter are the result's, and its packets the highest number it saw.
          const received: UdpSum = {
            bytes: m.bytes,
            jitter_ms: theirs.reduce((a, u) => a + u.jitter_ms, 0) / theirs.length,
            lost_packets: theirs.reduce((a, u) => a + u.lost_packets, 0),
            packets: theirs.reduce((a, u) => a + u.packets, 0),
            lost_percent: 0,
          };
          received.lost_percent = received.packets ? (100 * received.lost_packets) / received.packets : 0;
          assert.equal(m.datagrams, received.packets - received.lost_packets, `client ${label}: arrived as iperf3 counted them`);
          agree(report, `client ${label} ${key}`, m, received, 'iperf3');
        } else {
          // Longhaul counted; iperf3 sent: its datagram count is every number Longhaul accounted for.
          assert.equal(
            m.sent,
            theirs.reduce((a, u) => a + u.packets, 0),
            `client ${label}: iperf3's datagrams sent are the numbers counted`,
          );
          assert.equal(m.datagrams + m.lost, m.sent);
          assert.ok(m.jitterMs !== null && m.jitterMs > 0, 'a jitter was measured');
          report.push(`client ${label} ${key}: ${m.datagrams}+${m.lost} of ${m.sent} datagrams (iperf3's count), jitter ${m.jitterMs.toFixed(4)} ms`);
        }
      }
    });
  }
});
