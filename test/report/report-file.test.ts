import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { checkWritable, ReportFile, writeWholeFile } from '../../electron/report/report-file.js';
import { LonghaulError } from '../../electron/util/errors.js';
import { tmpDir } from '../helpers/tmp.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof LonghaulError, String(err));
    return err.code + ' ' + err.message;
  }
  return 'no error';
}

describe('report files', { timeout: 10_000 }, () => {
  it('keeps a growing body and replaces the tail at every write', (t) => {
    const file = path.join(tmpDir(t), 'a.log');
    const f = ReportFile.open(file, false);
    f.write('head\n', 'PARTIAL after 0 intervals, a long provisional line\n');
    f.write('row 1\n', 'PARTIAL after 1\n');
    assert.equal(readFileSync(file, 'utf8'), 'head\nrow 1\nPARTIAL after 1\n', 'a shorter tail leaves no stale bytes');
    f.write('row 2\n', 'final\n');
    f.close();
    f.close();
    assert.equal(readFileSync(file, 'utf8'), 'head\nrow 1\nrow 2\nfinal\n');
    assert.equal(f.error, null);
  });

  it('refuses an existing file without force and leaves it untouched', (t) => {
    const file = path.join(tmpDir(t), 'old.log');
    writeFileSync(file, 'yesterday\n');
    assert.match(
      codeOf(() => ReportFile.open(file, false)),
      /^LH_ERR_FILE_EXISTS .*--force/,
    );
    assert.match(
      codeOf(() => writeWholeFile(file, 'new', false)),
      /^LH_ERR_FILE_EXISTS/,
    );
    assert.match(
      codeOf(() => checkWritable(file, false)),
      /^LH_ERR_FILE_EXISTS/,
    );
    assert.equal(readFileSync(file, 'utf8'), 'yesterday\n');
  });

  it('with force, replaces a longer old file completely', (t) => {
    const file = path.join(tmpDir(t), 'old.log');
    writeFileSync(file, 'x'.repeat(1000));
    const f = ReportFile.open(file, true);
    assert.equal(readFileSync(file, 'utf8').length, 1000, 'nothing cut before the first write');
    f.write('new\n', '');
    f.close();
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
    assert.doesNotThrow(() => checkWritable(file, true));
  });

  it('says the disk is full (/dev/full) and stops writing', () => {
    const f = ReportFile.open('/dev/full', true);
    f.write('row\n', 'tail\n');
    f.close();
    assert.equal(f.error?.code, 'LH_ERR_IO');
    assert.match(f.error?.message ?? '', /disk is full.*ENOSPC/);
    assert.match(
      codeOf(() => writeWholeFile('/dev/full', 'x', true)),
      /^LH_ERR_IO .*ENOSPC/,
    );
  });

  it('explains unwritable paths', (t) => {
    const dir = tmpDir(t);
    assert.match(
      codeOf(() => ReportFile.open('/dev/full/run.log', true)),
      /^LH_ERR_IO .*not a folder.*ENOTDIR/,
    );
    assert.match(
      codeOf(() => ReportFile.open(path.join(dir, 'no', 'such', 'x.log'), false)),
      /^LH_ERR_IO .*folder does not exist.*ENOENT/,
    );
    assert.match(
      codeOf(() => ReportFile.open(dir, true)),
      /^LH_ERR_IO .*EISDIR/,
    );
    assert.match(
      codeOf(() => checkWritable(path.join(dir, 'no', 'x.json'), false)),
      /^LH_ERR_IO .*ENOENT/,
    );
    assert.match(
      codeOf(() => checkWritable('/dev/full/x.json', false)),
      /^LH_ERR_IO .*ENOTDIR/,
    );
  });

  it('discard removes a file it created, never one that existed', (t) => {
    const dir = tmpDir(t);
    const created = ReportFile.open(path.join(dir, 'new.log'), false);
    created.discard();
    assert.equal(existsSync(path.join(dir, 'new.log')), false);
    writeFileSync(path.join(dir, 'old.log'), 'keep me');
    const old = ReportFile.open(path.join(dir, 'old.log'), true);
    old.discard();
    assert.equal(readFileSync(path.join(dir, 'old.log'), 'utf8'), 'keep me');
  });
});
