/**
 * Receiver-limited UDP (issue 38 item 5), on real sockets as a user runs it: with a receive buffer
 * too small for the rate the receiving PC's own OS drops the datagrams, and the answer says so on
 * the receiving side (in each direction); with room enough nothing is dropped there.
 *
 * Physics: on loopback the only place a datagram can be dropped after the sender's OS took it is
 * the receiving socket (no wire, no queue between; the sender's refused sends are counted apart as
 * send errors). A 4 KiB `-w` (the kernel doubles it: 8 KiB, about three 1,460-byte datagrams with
 * their overhead) holds 0.35 ms at 200 Mbit/s, and one Node loop's pause of that length (a timer, a
 * GC, another program on the core) overflows it: a 1-s run loses hundreds at least. 2 MiB (capped
 * by rmem_max at 208 KiB at worst: ~0.07 s at 20 Mbit/s) holds every pause a busy PC makes.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';

async function udpRun(args: string[]): Promise<{ r: LonghaulResult; stdout: string }> {
  const file = path.join(os.tmpdir(), `longhaul-udp-drops-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  try {
    const run = await cli(['loopback', '-u', '-t', '1', '--json', file, ...args], 40_000).done;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    return { r: JSON.parse(await readFile(file, 'utf8')) as LonghaulResult, stdout: run.stdout };
  } finally {
    await rm(file, { force: true });
  }
}

describe('receiver-limited UDP on loopback', { timeout: 120_000, skip: process.platform !== 'linux' && 'Linux counts drops per socket' }, () => {
  for (const [flags, receiving] of [
    [[], 'responder'],
    [['-R'], 'controller'],
  ] as const) {
    const label = flags.length ? flags.join(' ') : 'forward';
    it(`${label}: a 4 KiB buffer at 200 Mbit/s overflows, and the answer puts it on the ${receiving}`, async () => {
      const { r, stdout } = await udpRun(['-b', '200M', '-w', '4K', ...flags]);
      const dir = r.params.direction === 'reverse' ? 'responderToController' : 'controllerToResponder';
      const u = r.directions[dir]?.udp;
      assert.ok(u, 'UDP totals');
      assert.ok(u.lost > 0, `the receive buffer overflowed (${JSON.stringify(u)})`);
      // Every loss on loopback is the receiving socket's: the OS's count is the receiver's, all of it.
      assert.equal(u.receiverDrops, u.lost, `drops at the receiving socket = datagrams lost (${JSON.stringify(u)})`);
      const streamDrops = r.streams.reduce((a, s) => a + (s.udp?.receiverDrops ?? 0), 0);
      assert.equal(streamDrops, u.receiverDrops, 'the streams sum to the total');
      // The buffer each receiving socket got, as its OS reported it: Linux doubles the 4 KiB asked.
      assert.equal(r.window.applied, true, r.window.note);
      assert.deepEqual(r.window.effectiveRcvBufBytes, { min: 8192, max: 8192 }, r.window.note);
      assert.equal(r.mss, undefined, 'datagrams have no MSS');
      assert.ok(!r.unavailable?.some((x) => x.field === 'socket'), `no TCP socket report is missed: ${JSON.stringify(r.unavailable)}`);
      const d = r.diagnosis?.find((x) => x.direction === dir);
      if (d?.case !== 'cpu-limited/udp-sender-short') {
        // More than 1 % lost (the rule's threshold) whenever the PC sent on schedule.
        if (d?.case === 'receiver-limited/udp-socket-full') {
          assert.equal(d.side, receiving, 'the receiving PC is the limit');
          assert.match(stdout, /^Result: .*receiver-limited/m);
          assert.match(stdout, /^Try:\s+longhaul loopback -u .*-w \d+[KM]\b/m, 'the change: a larger receive buffer');
        } else {
          assert.ok(u.lost / (u.lost + u.datagrams) <= 0.01, `${d?.case}: below the 1 % threshold only (${JSON.stringify(u)})`);
        }
      }
    });
  }

  it('a 2 MiB buffer at 20 Mbit/s drops nothing at the receiving socket', async () => {
    const { r } = await udpRun(['-b', '20M', '-w', '2M']);
    const u = r.directions.controllerToResponder?.udp;
    assert.ok(u, 'UDP totals');
    assert.equal(u.receiverDrops, 0, JSON.stringify(u));
    assert.equal(u.lost, 0, 'loopback loses nothing else');
    assert.notEqual(r.diagnosis?.find((x) => x.direction === 'controllerToResponder')?.case, 'receiver-limited/udp-socket-full');
  });
});
