/**
 * `longhaul history` on a seeded results folder (LONGHAUL_DATA_DIR): the CSV of one schedule parsed
 * back with csv-parse (one row per run and direction, empty cells where not measured, a formula-like
 * host name quoted), JSON, the table, times refused with what was expected, `-o` refusing to
 * overwrite, and `history prune` saying what it removed.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { HISTORY_CSV_COLUMNS } from '../../electron/report/history-csv.js';
import { startCli } from '../helpers/cli-process.js';
import { seedHistory, seededId } from '../helpers/history-seed.js';
import { tmpDir } from '../helpers/tmp.js';

type Row = Record<string, string>;

describe('longhaul history CLI', { timeout: 60_000 }, () => {
  it('--format csv: one schedule, one row per run and direction, empty where not measured; json and the table agree', async (t) => {
    const dir = tmpDir(t);
    const data = path.join(dir, 'results');
    const seeded = await seedHistory(data, new Date());
    const env = { LONGHAUL_DATA_DIR: data };
    const csv = startCli(t, ['history', '--schedule', 'lab', '--format', 'csv'], dir, env);
    assert.equal(await csv.exited(20_000), 0, csv.stderr());
    assert.ok(csv.stdout().startsWith('\uFEFF'), 'UTF-8 with a byte-order mark, as every Longhaul CSV');
    const rows = parse(csv.stdout(), { columns: true, bom: true }) as Row[];
    assert.deepEqual(Object.keys(rows[0] ?? {}), [...HISTORY_CSV_COLUMNS]);
    assert.equal(rows.length, seeded.lab + 1, 'five runs, the --bidir one as two rows');
    assert.deepEqual(
      rows.map((r) => r.slot),
      ['1000000', '1000001', '1000002', '1000003', '1000004', '1000004'],
      'oldest first',
    );
    const first = rows[0]!;
    assert.equal(first.schedule, 'lab');
    assert.match(first.started_at_utc ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(first.wall_clock_bits_per_s, '94000000');
    assert.equal(first.rtt_ms, '12.5');
    assert.equal(first.retransmits_segments, '3');
    assert.equal(first.verdict, 'link-limited');
    assert.equal(first.case, 'link-limited/rate-reached');
    assert.equal(first.udp_loss_percent, '', 'TCP: no UDP loss, an empty cell');
    assert.equal(first.capacity_payload_bits_per_s, '', 'not measured: empty, never 0');
    assert.equal(first.partial, 'false');
    const bidir = rows.filter((r) => r.direction === 'bidir');
    assert.deepEqual(
      bidir.map((r) => [r.flow, r.received_bytes, r.verdict, r.retransmits_segments]),
      [
        ['controller_to_responder', '60000000', 'window-limited', '0'],
        ['responder_to_controller', '50000000', 'receiver-limited', '1'],
      ],
      'a measured 0 stays 0',
    );

    const voice = startCli(t, ['history', '--schedule', 'voice', '-f', 'csv'], dir, env);
    assert.equal(await voice.exited(20_000), 0, voice.stderr());
    const udp = parse(voice.stdout(), { columns: true, bom: true }) as Row[];
    assert.deepEqual(
      udp.map((r) => [r.protocol, r.udp_loss_percent, r.udp_jitter_ms, r.retransmits_segments, r.rtt_ms]),
      [
        ['udp', '0.5', '1.234', '', ''],
        ['udp', '0.5', '2.234', '', ''],
      ],
    );

    const manual = startCli(t, ['history', '--manual', '-f', 'csv', '-o', 'manual.csv'], dir, env);
    assert.equal(await manual.exited(20_000), 0, manual.stderr());
    assert.match(manual.stderr(), /^2 runs \(.*\): written to manual\.csv$/m);
    const text = readFileSync(path.join(dir, 'manual.csv'), 'utf8');
    assert.match(text, /,"'=HYPERLINK\(""http:\/\/x""\)",/, 'a host name a spreadsheet would run is quoted with a leading apostrophe');
    const hand = parse(text, { columns: true, bom: true }) as Row[];
    assert.deepEqual(
      hand.map((r) => [r.schedule, r.slot, r.partial, r.error_code, r.verdict]),
      [
        ['', '', 'false', '', 'cpu-limited'],
        ['', '', 'true', 'LH_ERR_PEER_GONE', ''],
      ],
    );
    const again = startCli(t, ['history', '--manual', '-f', 'csv', '-o', 'manual.csv'], dir, env);
    assert.equal(await again.exited(20_000), 2);
    assert.match(again.stderr(), /manual\.csv: it already exists; add --force/);

    const json = startCli(t, ['history', '--since', '50m', '-f', 'json'], dir, env);
    assert.equal(await json.exited(20_000), 0, json.stderr());
    const runs = JSON.parse(json.stdout()) as Record<string, unknown>[];
    assert.deepEqual(
      runs.map((r) => r.run_id),
      [seededId(4), seededId(4), seededId(11), seededId(20), seededId(21)],
      'the runs of the last 50 minutes, oldest first, the --bidir one twice',
    );
    assert.ok(
      runs.every((r) => typeof r.received_bytes === 'number' && r.capacity_payload_bits_per_s === null),
      'numbers as numbers, null where not measured',
    );

    const table = startCli(t, ['history'], dir, env);
    assert.equal(await table.exited(20_000), 0, table.stderr());
    const lines = table.stdout().trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^started \(local time\) +schedule +slot +partner +proto +P +direction +rate \(wall clock\) +verdict$/);
    assert.equal(lines.length, 1 + 9 + 1, 'a header, one line per run, the count');
    assert.match(lines.at(-1) ?? '', /^9 runs \(9 in .*results\)$/);
    assert.match(table.stdout(), / lab +1000004 +lab-pc \(10\.0\.0\.5:5211\) +tcp +2 +bidir +88\.00 Mbit\/s +window \/ receiver\n/);
    assert.match(table.stdout(), / - +- +=HYPERLINK\("http:\/\/x"\) \(10\.0\.0\.7:5211\) +tcp +1 +forward +16\.00 Mbit\/s \(partial\) +-\n/);
  });

  it('refuses a time it cannot read, saying what it expected', async (t) => {
    const dir = tmpDir(t);
    for (const [args, why] of [
      [
        ['--since', 'yesterday'],
        /--since <when>' argument 'yesterday' is invalid\. expected an ISO 8601 date or time \(2026-12-01, .*\) or a time back from now \(30m, 2h, 7d, 2w\)/,
      ],
      [['--until', '2026-02-30'], /2026-02-30 is not a day of the calendar/],
      [['--since', '2d', '--until', '3d'], /--since must be before --until/],
    ] as const) {
      const r = startCli(t, ['history', ...args], dir, { LONGHAUL_DATA_DIR: dir });
      assert.equal(await r.exited(20_000), 2, r.stderr());
      assert.match(r.stderr(), why);
    }
  });

  it('prune: a dry run says what it would remove and removes nothing; then removes it, a run with both its files', async (t) => {
    const dir = tmpDir(t);
    const data = path.join(dir, 'results');
    // The seed an hour back: its lab runs 2 to 3 hours old, its runs by hand 65 and 90 min.
    await seedHistory(data, new Date(Date.now() - 60 * 60_000));
    const before = readdirSync(data).length;
    const env = { LONGHAUL_DATA_DIR: data };
    const dry = startCli(t, ['history', 'prune', '--older-than', '2h', '--dry-run'], dir, env);
    assert.equal(await dry.exited(20_000), 0, dry.stderr());
    assert.match(dry.stdout(), /^Rule \(the flags\): Scheduled runs older than 2 hours are removed; runs started by hand are kept\.$/m);
    assert.match(dry.stdout(), /^Would remove 5 runs \(5 files\) from .*:$/m);
    assert.match(dry.stdout(), /^ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}lab slot 1000000 {2}\S+_00000000abc00000\.json$/m);
    assert.match(dry.stdout(), /^4 runs kept\. Nothing was removed \(--dry-run\)\.$/m);
    assert.equal(readdirSync(data).length, before);
    writeFileSync(path.join(data, '2020-01-01T00-00-00-000Z_00000000deadbeef.json'), 'not json');
    const real = startCli(t, ['history', 'prune', '--older-than', '80m', '--scope', 'all'], dir, env);
    assert.equal(await real.exited(20_000), 0, real.stderr());
    assert.match(real.stdout(), /^Rule \(the flags\): Runs older than 1\.3 hours are removed\.$/m);
    assert.match(real.stdout(), /^Removed 8 runs \(8 files\)/m);
    assert.match(real.stdout(), /^ {2}\S+ \S+ {2}by hand {2}\S+_00000000abc00014\.json$/m);
    assert.match(real.stdout(), /^Left alone \(1\):\n {2}2020-01-01T00-00-00-000Z_00000000deadbeef\.json: .*is not JSON/m);
    assert.equal(readdirSync(data).length, before - 8 + 1);
  });
});
