/**
 * `longhaul report --from group.json`: a `longhaul.group/1` document is told
 * apart by its schema and rendered with the group layouts (the same text as
 * the group formatters give); a ttcp line is refused (one per peer), and a
 * damaged group (a peer's result missing a field reports rely on) is one
 * clear LH_ERR_BAD_RESULT with exit code 2.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { GroupPeer, LonghaulGroupResult } from '../../electron/contract/group.js';
import { buildGroupResult } from '../../electron/engine/group/group-aggregate.js';
import { formatGroupCsv } from '../../electron/report/group-csv.js';
import { formatGroupConsoleLog } from '../../electron/report/group-log.js';
import { startCli } from '../helpers/cli-process.js';
import { makeIntervals, makeResult } from '../helpers/result-fixtures.js';
import { tmpDir } from '../helpers/tmp.js';

function group(): LonghaulGroupResult {
  const peer = (index: number, perInterval: number): GroupPeer => ({
    index,
    address: `192.0.2.${index + 1}:5211`,
    hostname: `lab-${index + 1}`,
    software: 'x',
    role: 'receiver',
    startOffsetSeconds: index * 0.002,
    result: makeResult({
      streams: [{ bytes: perInterval * 3, seconds: 3, completions: 3, firstT: 0 }],
      intervals: makeIntervals([1, 2, 3].map((t) => ({ t, received: [perInterval] }))),
    }),
  });
  const params = peer(0, 1).result.params;
  return buildGroupResult(
    {
      id: '0123456789abcdef',
      software: 'x',
      startedAt: new Date('2026-01-02T03:04:05Z'),
      endedAt: new Date('2026-01-02T03:04:09Z'),
      controller: { hostname: 'me', address: 'local', software: 'x' },
      params,
      startFailure: null,
      errors: [],
    },
    [peer(0, 29_034_250), peer(1, 25_600_750)],
  );
}

describe('longhaul report --from a group file', { timeout: 30_000 }, () => {
  it('renders longhaul.group/1 with the group formatters; refuses ttcp and a damaged group', async (t) => {
    const dir = tmpDir(t);
    const g = group();
    writeFileSync(path.join(dir, 'group.json'), JSON.stringify(g, null, 2));

    const log = startCli(t, ['report', '--from', 'group.json'], dir);
    assert.equal(await log.exited(10_000), 0, log.stderr());
    assert.equal(log.stdout(), formatGroupConsoleLog(g));
    assert.match(log.stdout(), /=== peer 2 \(192\.0\.2\.2:5211\) ===/);
    assert.match(log.stdout(), /=== all 2 peers \(Thread = peer number\) ===/);

    const csv = startCli(t, ['report', '--from', 'group.json', '--format', 'csv', '--out', 'group.csv'], dir);
    assert.equal(await csv.exited(10_000), 0, csv.stderr());
    assert.equal(readFileSync(path.join(dir, 'group.csv'), 'utf8'), formatGroupCsv(g));

    const json = startCli(t, ['report', '--from', 'group.json', '--format', 'json'], dir);
    assert.equal(await json.exited(10_000), 0, json.stderr());
    assert.deepEqual(JSON.parse(json.stdout()), g, 'what the schema does not name passes through');

    const ttcp = startCli(t, ['report', '--from', 'group.json', '--format', 'ttcp'], dir);
    assert.equal(await ttcp.exited(10_000), 2);
    assert.match(ttcp.stderr(), /LH_ERR_BAD_ARGUMENT: a ttcp line is one run's figure; a group has one per peer/);

    const damaged = structuredClone(g) as unknown as { peers: { result: { total: Record<string, unknown> } }[] };
    delete damaged.peers[1]!.result.total.bytes;
    writeFileSync(path.join(dir, 'damaged.json'), JSON.stringify(damaged));
    const bad = startCli(t, ['report', '--from', 'damaged.json'], dir);
    assert.equal(await bad.exited(10_000), 2);
    assert.match(bad.stderr(), /LH_ERR_BAD_RESULT: damaged\.json is not a valid longhaul\.group\/1 document at peers\.1\.result\.total\.bytes/);
  });
});
