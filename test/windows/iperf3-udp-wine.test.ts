/**
 * Longhaul's iperf3 server on Windows (node.exe under Wine, docs/windows-lane.md) taking a real
 * `iperf3 -c -u` (Debian's, on Linux), forward and -R, and its client against `iperf3 -s`: the UDP connect's listener and each stream's
 * socket beside it on the same port (engine/data-plane/udp/iperf3-connect.ts) under Winsock's
 * SO_REUSEADDR, iperf3's header and the results exchange. Every datagram accounted for: what the
 * sender sent is what Longhaul counted arrived + lost (with -R, the tail iperf3's receiver cannot see
 * counted from Longhaul's own last number). Forward both print the same loss; with -R the losses differ by exactly that tail.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { assertUdpLossLaw } from '../helpers/udp-loss-law.js';
import { HAVE_IPERF3, freePort, runIperf3, startIperf3Server } from '../helpers/iperf3.js';
import { laneReady, listening, resultsDirWithSpaces, runWindowsNode, useWindowsLane } from './wine-node.js';

useWindowsLane();

interface UdpSum {
  bytes: number;
  packets: number;
  lost_packets: number;
  lost_percent: number;
  jitter_ms: number;
}

describe("iperf3's UDP both ways under Wine (Windows build)", { timeout: 600_000 }, () => {
  for (const reverse of [false, true]) {
    it(
      `iperf3 -c -u -b 10M${reverse ? ' -R: every datagram accounted for, the losses differ by the tail iperf3 cannot see' : ': every datagram accounted for, both print the same loss'}`,
      { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' },
      async (t) => {
        if (!laneReady(t)) return;
        const dir = resultsDirWithSpaces(t);
        const port = await freePort();
        const server = runWindowsNode(['bin/longhaul.js', 'listen', '--iperf3', '--port', String(port), '--bind', '127.0.0.1', '--once'], {
          timeoutMs: 90_000,
          env: { LONGHAUL_DATA_DIR: dir.win },
        });
        await listening(port, 60_000);
        const c = await runIperf3(
          ['-c', '127.0.0.1', '-p', String(port), '-u', '-b', '10M', '-l', '1200', '-t', '2', ...(reverse ? ['-R'] : []), '-J'],
          60_000,
        );
        assert.equal(c.code, 0, `iperf3 -c: ${c.stderr} ${c.json?.error ?? ''}`);
        const s = await server;
        assert.equal(s.code, 0, `listen under Wine: exit ${s.code}\n${s.stdout}\n${s.stderr}`);
        const files = readdirSync(dir.linux).filter((n) => n.endsWith('.json'));
        assert.equal(files.length, 1, `one result in History: ${files.join(', ')}\n${s.stdout}`);
        const r = JSON.parse(readFileSync(path.join(dir.linux, files[0]!), 'utf8')) as LonghaulResult;
        assert.equal(r.partial, false, `${r.partialReason} ${JSON.stringify(r.errors)}`);
        const u = r.total.udp;
        assert.ok(u, 'UDP totals');
        const end = c.json?.end as unknown as Record<string, UdpSum | undefined>;
        const sent = end.sum_sent;
        const received = end.sum_received;
        assert.ok(sent && received, "iperf3's sender and receiver lines");
        // Forward iperf3 sent and Longhaul counted (the tail from iperf3's own count of what it sent); with -R Longhaul
        // sent and iperf3 counted, so the two losses differ by exactly the tail iperf3 cannot see.
        const lastSeq = r.streams.reduce((a, st) => a + (st.udp?.lastSeq ?? NaN), 0);
        if (!reverse) assert.equal(lastSeq, sent.packets, "Longhaul's last number is iperf3's count of what it sent");
        assertUdpLossLaw(reverse ? '-R' : 'forward', { datagrams: u.datagrams, lost: u.lost, lastSeq }, received, reverse ? 'iperf3' : 'longhaul');
        console.log(
          `# ${reverse ? '-R' : 'forward'}: ${u.datagrams}+${u.lost} datagrams, jitter ${u.jitterMs} ms; iperf3 ${received.lost_packets}/${received.packets}, jitter ${received.jitter_ms} ms`,
        );
      },
    );
  }

  it(
    'longhaul run --iperf3 -u under Wine → iperf3 -s: iperf3 counted every datagram Longhaul sent',
    { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' },
    async (t) => {
      if (!laneReady(t)) return;
      const dir = resultsDirWithSpaces(t);
      const port = await freePort();
      const { exit } = await startIperf3Server(port, 90_000);
      const file = `${dir.win}\\result.json`;
      const run = await runWindowsNode(
        ['bin/longhaul.js', 'run', '--iperf3', `127.0.0.1:${port}`, '-u', '-b', '10M', '-l', '1200', '-t', '2', '--json', file],
        {
          timeoutMs: 90_000,
        },
      );
      assert.equal(run.code, 0, `run under Wine: ${run.stdout}\n${run.stderr}`);
      const server = await exit;
      assert.equal(server.code, 0, server.stderr);
      const r = JSON.parse(readFileSync(path.join(dir.linux, 'result.json'), 'utf8')) as LonghaulResult;
      const theirs = (server.json?.end as unknown as Record<string, UdpSum | undefined>).sum_received;
      assert.ok(theirs && r.total.udp, "iperf3 -s's receiver line and Longhaul's UDP totals");
      assert.equal(r.total.udp.datagrams, theirs.packets - theirs.lost_packets, 'the datagrams iperf3 counted');
      assert.equal(r.total.udp.datagrams + r.total.udp.lost, r.streams[0]?.udp?.lastSeq, 'arrived + lost is every number Longhaul sent');
      console.log(`# client: ${r.total.udp.datagrams}+${r.total.udp.lost} datagrams; iperf3 ${theirs.lost_packets}/${theirs.packets}`);
    },
  );
});
