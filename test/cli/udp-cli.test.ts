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
import { parse } from 'csv-parse/sync';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { cli } from '../helpers/cli.js';

/** The pacer writes off what it could not send in time (shortBytes): sent + written off is the schedule, ±2 % (its catch-up slice, 20 ms of 2 s, and the first datagram's rounding). */
const SCHEDULE_TOLERANCE = 0.02;

async function udpRun(args: string[]): Promise<{ r: LonghaulResult; stdout: string; csv: Record<string, string>[]; log: string }> {
  const file = path.join(os.tmpdir(), `longhaul-udp-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  const csvFile = `${file}.csv`;
  const logFile = `${file}.log`;
  try {
    const run = await cli(['loopback', '-u', '-t', '2', '-i', '0.5', '--json', file, '--csv', csvFile, '--log', logFile, ...args], 40_000).done;
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const csv = parse(await readFile(csvFile, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    const log = await readFile(logFile, 'utf8');
    return { r: JSON.parse(await readFile(file, 'utf8')) as LonghaulResult, stdout: run.stdout, csv, log };
  } finally {
    for (const f of [file, csvFile, logFile]) await rm(f, { force: true });
  }
}

/** The console log and the HTML report say each direction's loss and jitter, in the same words. */
function checkLogAndHtml(r: LonghaulResult, log: string): void {
  assert.match(log, /^Parameters: \d+ UDP stream\(s\) per direction, .* datagrams of 1460 bytes/m);
  const lines =
    log.match(
      /^UDP( \(\w+ -> \w+\))?: [\d,]+\/[\d,]+ \([\d.]+ %\) datagrams lost, jitter [\d.]+ ms \(RFC 3550\), out of order \d+, duplicates \d+(; dropped by the receiving PC ([\d,]+|unknown))?$/gm,
    ) ?? [];
  assert.equal(lines.length, r.params.direction === 'bidir' ? 2 : 1, log);
  assert.doesNotMatch(log, /^MSS: /m, 'no MSS line for UDP');
  const html = formatHtmlReport(r);
  for (const l of lines)
    assert.ok(html.includes(`<p data-udp>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`), `the HTML says: ${l}`);
  // Beside the rate, the loss per interval as its own chart (Results draws it on a right-hand axis); no TCP sections.
  assert.match(html, /aria-label="Datagrams lost per interval \(% of those numbered in the interval, all streams\)"/);
  assert.doesNotMatch(html, /RTT and congestion window|What-if/, "TCP's sections are not a UDP run's");
}

/** The CSV carries UDP's columns: each interval's and stream's counts, and the total's, as the result has them. */
function checkCsv(r: LonghaulResult, csv: Record<string, string>[]): void {
  assert.ok(
    csv.every((row) => row.protocol === 'udp'),
    'every row says udp',
  );
  const intervals = csv.filter((row) => row.row_type === 'interval' && row.udp_arrived_datagrams !== '');
  assert.ok(intervals.length > 0 && intervals.every((row) => row.udp_jitter_ms !== undefined), 'interval rows with UDP counts');
  const total = csv.find((row) => row.row_type === 'total');
  assert.equal(Number(total?.udp_arrived_datagrams), r.total.udp?.datagrams);
  assert.equal(Number(total?.udp_lost_datagrams), r.total.udp?.lost);
  const drops = r.total.udp?.receiverDrops;
  assert.equal(total?.udp_receiver_dropped_datagrams, drops === null || drops === undefined ? '' : String(drops), "the receiving PC's drops");
  for (const s of r.streams) {
    const row = csv.find((x) => x.row_type === 'stream' && x.stream_id === String(s.id));
    assert.equal(Number(row?.udp_sender_short_bytes), s.udp?.shortBytes, `stream ${s.id}: the sender's shortfall`);
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
    [['--udp-ramp', '--link-json', '{"up":[],"down":[]}'], 'not a raw stage chain'],
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
      const { r, stdout, csv, log } = await udpRun([...flags]);
      checkCsv(r, csv);
      checkLogAndHtml(r, log);
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
      // The command that tries the change: the ramp from the asked rate, one direction at a time (a --bidir run tries one rate).
      const tryLine = /^Try:\s+(.*)$/m.exec(stdout)?.[1];
      if (tryLine && r.diagnosis?.every((d) => d.case !== 'cpu-limited/udp-sender-short')) {
        assert.match(tryLine, label === '--bidir' ? /^longhaul loopback -u --bidir -b \d+M$/ : /^longhaul loopback -u( -P 2)?( -R)? --udp-ramp -b 8M$/);
      }
    });
  }
});
