import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readResultFile } from '../../electron/report/result-file.js';
import { LonghaulError } from '../../electron/util/errors.js';
import { recordRun } from '../helpers/result-fixtures.js';
import { tmpDir } from '../helpers/tmp.js';

async function failure(p: Promise<unknown>): Promise<LonghaulError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof LonghaulError);
    return err;
  }
  assert.fail('expected an error');
}

describe('reading a saved result', { timeout: 10_000 }, () => {
  it('accepts a valid result (and extra fields later versions may add)', async (t) => {
    const file = path.join(tmpDir(t), 'r.json');
    writeFileSync(file, JSON.stringify({ ...recordRun(), rttMs: 12.5 }));
    const r = await readResultFile(file);
    assert.equal(r.total.bytes, 8_448_000_000);
  });

  it('names what is wrong with a bad file', async (t) => {
    const dir = tmpDir(t);
    const write = (name: string, text: string): string => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const notJson = await failure(readResultFile(write('a.json', '{ nope')));
    assert.equal(notJson.code, 'LH_ERR_BAD_RESULT');
    assert.match(notJson.message, /is not JSON/);
    const other = await failure(readResultFile(write('b.json', JSON.stringify({ schema: 'iperf3' }))));
    assert.match(other.message, /expected "schema": "longhaul.result\/1", found "iperf3"/);
    const broken = recordRun() as unknown as { streams: { bytes: unknown }[] };
    broken.streams[1]!.bytes = '4224000000';
    const bad = await failure(readResultFile(write('c.json', JSON.stringify(broken))));
    assert.match(bad.message, /at streams\.1\.bytes/);
    const missing = await failure(readResultFile(path.join(dir, 'none.json')));
    assert.equal(missing.code, 'LH_ERR_IO');
    assert.match(missing.message, /no such file/);
  });
});
