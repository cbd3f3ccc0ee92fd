/**
 * `-u` on loopback, as a user runs it, in each direction (forward, -R, --bidir): the datagrams are
 * all accounted for (on each stream, arrived + lost = the sender's last sequence number, the
 * tail counted), the rate is the one asked or the sender says how much it fell short, the console
 * shows iperf3's UDP columns (jitter, lost/total) and the answer names the asked rate. -u with
 * a flag it cannot take exits 2 naming the flag.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult, StreamResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';

/** The pacer writes off what it could not send in time (shortBytes): sent + written off is the schedule, ±2 % (its catch-up slice, 20 ms of 2 s, and the first datagram's rounding). */
const SCHEDULE_TOLERANCE = 0.02;

async function udpRun(args: string[]): Promise<{ r: LonghaulResult; stdout: string }> {
  const file = path.join(os.tmpdir(), `longhaul-udp-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  try {
    const run = await cli(['loopback', '-u', '-t', '2', '-i', '0.5', '--json', file, ...args], 40_000).done;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    return { r: JSON.parse(await readFile(file, 'utf8')) as LonghaulResult, stdout: run.stdout };
  } finally {
    await rm(file, { force: true });
  }
}

function checkStream(s: StreamResult, perStream: number, seconds: number): void {
  const u = s.udp;
  assert.ok(u, `stream ${s.id}: UDP figures`);
  assert.ok(u.lastSeq !== null && u.lastSeq > 0, `stream ${s.id}: the sender's last number`);
  assert.equal(u.datagrams + u.lost, u.lastSeq, `stream ${s.id}: arrived + lost = the sender's last number`);
  assert.equal(u.sentDatagrams, u.lastSeq, `stream ${s.id}: every number handed to the OS once`);
  const schedule = (perStream / 8) * seconds;
  const ratio = ((s.send?.bytes ?? 0) + (u.shortBytes ?? 0)) / schedule;
  assert.ok(Math.abs(ratio - 1) <= SCHEDULE_TOLERANCE, `stream ${s.id}: sent + written off = ${ratio.toFixed(4)} × the schedule`);
  assert.ok(u.jitterMs !== null && u.jitterMs >= 0, `stream ${s.id}: a jitter`);
}

describe('longhaul loopback -u', { timeout: 150_000 }, () => {
  for (const [args, why] of [
    [['-C', 'reno'], '-C'],
    [['-M', '1000'], '-M'],
    [['--capacity'], '--capacity'],
    [['-l', '20'], '-l'],
    [['-l', '70000'], '-l'],
    [['--link', 'satellite'], '-u'],
  ] as const) {
    it(`-u ${args.join(' ')} → exit 2 naming ${why}`, async () => {
      const r = await cli(['loopback', '-u', ...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.ok(r.stderr.includes(why), `stderr names ${why}: ${r.stderr}`);
    });
  }

  for (const [flags, label] of [
    [['-b', '8M'], 'forward'],
    [['-b', '8M', '-R', '-P', '2'], '-R -P 2'],
    [['-b', '8M', '--bidir'], '--bidir'],
  ] as const) {
    it(`${label}: every datagram accounted for, the asked rate, iperf3's columns and the answer`, async () => {
      const { r, stdout } = await udpRun([...flags]);
      assert.equal(r.partial, false, `${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
      assert.equal(r.params.protocol, 'udp');
      assert.equal(r.params.bufferBytes, 1460, 'the default datagram, as iperf3');
      for (const s of r.streams) checkStream(s, 8e6, 2);
      assert.match(stdout, /^interval\s+bytes\s+rate \(received\)\s+jitter\s+lost\/total$/m, 'the live header');
      assert.match(stdout, /^\[\s*\d+\] .* ms\s+\d[\d,]*\/\d[\d,]* \([\d.]+ %\)$/m, 'a stream row with jitter and lost/total');
      for (const d of r.diagnosis ?? []) {
        const t = r.directions[d.direction];
        // Loopback carries 8 Mbit/s without loss; a busy PC may fall short (then said), never the path.
        assert.ok(
          d.case === 'application-limited/udp-carried' || d.case === 'cpu-limited/udp-sender-short',
          `${d.direction}: ${d.case} (${t?.bitsPerSecond} bit/s, udp ${JSON.stringify(t?.udp)})`,
        );
      }
      assert.match(
        stdout,
        /^Result: (\w+ -> \w+: )?[\d.]+ [kM]bit\/s · (application-limited: the asked [\d.]+ Mbit\/s arrived; [\d.]+ % of [\d,]+ datagrams lost, jitter [\d.]+ ms|CPU-limited: the sending PC)/m,
      );
      assert.doesNotMatch(stdout, /unknown \(it did not say how it paced\)/, 'each sender says how it paced');
    });
  }
});
