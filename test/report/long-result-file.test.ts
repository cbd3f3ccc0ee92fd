/**
 * A result the size of an hour of 128 streams at -i 1 (about 600 MB of JSON,
 * past the longest string V8 builds: 2^29 − 24 characters) goes through the
 * writer and back through the real `longhaul report --from`, byte for byte.
 * With a whole-text path anywhere (JSON.stringify, readFile + JSON.parse) this
 * fails with "Invalid string length" / ERR_STRING_TOO_LONG, so it cannot pass
 * by accident. About 45 s and 1.2 GB of temporary disk on the 2-core test VM.
 */
import assert from 'node:assert/strict';
import { constants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { HistoryStore } from '../../electron/app/history-store.js';
import { writeResultFile } from '../../electron/report/result-file.js';
import { cli } from '../helpers/cli.js';
import { makeLongResult } from '../helpers/long-result.js';
import { tmpDir } from '../helpers/tmp.js';

async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

describe('a result larger than a string', { timeout: 300_000 }, () => {
  it('an hour of 128 streams at -i 1 is written, re-read by report --from, and listed from its head', async (t) => {
    const dir = tmpDir(t);
    const file = path.join(dir, 'hour.json');
    let result: ReturnType<typeof makeLongResult> | null = makeLongResult({ streams: 128, intervals: 3600, intervalSeconds: 1 });
    const totalBytes = result.total.bytes;
    let t0 = Date.now();
    await writeResultFile(file, result);
    const writeMs = Date.now() - t0;
    result = null; // the CLI reads it from the file alone
    const size = statSync(file).size;
    assert.ok(size > constants.MAX_STRING_LENGTH, `${size} bytes: more than V8's longest string (${constants.MAX_STRING_LENGTH})`);

    t0 = Date.now();
    const copy = path.join(dir, 'copy.json');
    const json = await cli(['report', '--from', file, '--format', 'json', '--out', copy], 240_000).done;
    const roundTripMs = Date.now() - t0;
    assert.equal(json.code, 0, json.stderr);
    assert.equal(await sha256(copy), await sha256(file), 'report --format json gives back the same bytes');

    const ttcp = await cli(['report', '--from', file, '--format', 'ttcp'], 240_000).done;
    assert.equal(ttcp.code, 0, ttcp.stderr);
    assert.match(ttcp.stdout, new RegExp(`\\b${totalBytes}\\b`), 'the total read back');

    // History's listing reads the head only: a fraction of a second for 600 MB.
    const history = path.join(dir, 'history');
    mkdirSync(history);
    renameSync(file, path.join(history, '2001-11-19T10-00-00-000Z_0123456789abcdef.json'));
    t0 = Date.now();
    const listing = await new HistoryStore(history).list();
    const listMs = Date.now() - t0;
    assert.deepEqual(listing.unreadable, []);
    assert.equal(listing.entries[0]?.bytes, totalBytes);
    assert.ok(listMs < 2000, `listed in ${listMs} ms`);
    t.diagnostic(`${(size / 1e6).toFixed(0)} MB: written in ${writeMs} ms, report --from → json in ${roundTripMs} ms, listed in ${listMs} ms`);
  });
});
