import assert from 'node:assert/strict';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readResultFile, readResultHead, resultChunks, writeResultFile } from '../../electron/report/result-file.js';
import { LonghaulError } from '../../electron/util/errors.js';
import { makeLongResult } from '../helpers/long-result.js';
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

describe('writing a result in pieces', { timeout: 30_000 }, () => {
  it('writes the same JSON value as JSON.stringify, its growing members last, and reads it back', async (t) => {
    const result = { ...makeLongResult({ streams: 3, intervals: 400, intervalSeconds: 0.1 }), laterField: { x: [1, 2] } };
    const file = path.join(tmpDir(t), 'r.json');
    await writeResultFile(file, result);
    const text = readFileSync(file, 'utf8');
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(result)));
    assert.equal(text, [...resultChunks(result)].join(''));
    const keys = Object.keys(JSON.parse(text) as object);
    assert.deepEqual(keys.slice(-2), ['streams', 'intervals']);
    assert.deepEqual(await readResultFile(file), JSON.parse(text));
  });

  it('reads the head of a result without its streams and intervals, in both layouts', async (t) => {
    const dir = tmpDir(t);
    const result = makeLongResult({ streams: 2, intervals: 3000, intervalSeconds: 0.1 });
    // Written by this version: the head comes first, so a file cut inside its intervals still lists.
    const cut = path.join(dir, 'cut.json');
    await writeResultFile(cut, result);
    truncateSync(cut, readFileSync(cut).length - 1000);
    const head = await readResultHead(cut);
    assert.equal(head.total.bytes, result.total.bytes);
    assert.ok(!('intervals' in head) && !('streams' in head));
    assert.equal((await failure(readResultFile(cut))).code, 'LH_ERR_BAD_RESULT');
    // Written before (JSON.stringify order: intervals before total): skipped unparsed, the rest still read.
    const old = path.join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(result, null, 2));
    assert.deepEqual(await readResultHead(old), JSON.parse(JSON.stringify({ ...result, streams: undefined, intervals: undefined })));
    // The head is checked with the result schema too.
    writeFileSync(old, JSON.stringify({ ...result, total: { bytes: 'many' } }));
    assert.match((await failure(readResultHead(old))).message, /at total\.bytes/);
  });
});
