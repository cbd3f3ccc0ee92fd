/**
 * The release workflow's smoke check (scripts/packaging/check-smoke-result.ts) on
 * real results: a `longhaul loopback -w 64K` run with the addon passes it, the
 * same run without the addon fails it for the right reasons, and each check
 * fails on its own when one field of a good result is spoiled.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { smokeResultProblems } from '../../scripts/packaging/check-smoke-result.js';
import { skipWithoutNative } from '../helpers/native.js';
import { BIN, REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { childEnded } from '../helpers/child-exit.js';

const CHECK = path.join(REPO, 'dist/scripts/packaging/check-smoke-result.js');
/** The check is asked of the Windows package (release.yml); Linux runs it offline. macOS results are not held to it. */
const skipGoodRun = skipWithoutNative || (process.platform === 'darwin' ? 'the smoke check is asked of the Windows package, not of macOS' : false);

function run(args: string[], env: NodeJS.ProcessEnv = {}, ms = 40_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    void childEnded(child).then(({ code }) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The smoke run of release.yml, under Node from this checkout; returns the result file. */
async function smokeRun(t: TestContext, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const file = path.join(tmpDir(t), 'r.json');
  const r = await run([BIN, 'loopback', '-w', '64K', '-t', '2', '--json', file], env);
  assert.equal(r.code, 0, r.out);
  return file;
}

describe('release smoke check (check-smoke-result)', { timeout: 90_000 }, () => {
  it('passes a loopback run with the addon, and each check fails on its own', { skip: skipGoodRun }, async (t) => {
    const file = await smokeRun(t);
    const ok = await run([CHECK, file]);
    assert.equal(ok.code, 0, ok.out);
    assert.match(ok.out, /stream 0 send end \(controller\): io native, window 65536 B applied before handshake true/);
    const good = JSON.parse(readFileSync(file, 'utf8')) as LonghaulResult;
    assert.deepEqual(smokeResultProblems(good), []);

    const spoil = (f: (d: LonghaulResult) => void): string[] => {
      const d = structuredClone(good);
      f(d);
      return smokeResultProblems(d);
    };
    assert.match(
      spoil((d) => {
        d.streams[0]!.receive!.socket!.appliedBeforeHandshake = false;
      }).join('\n'),
      /stream 0 receive end \(responder\): the window was not applied before the handshake/,
    );
    assert.match(
      spoil((d) => {
        for (const x of d.streams[0]!.send!.tcp!) x.rttUs = null;
      }).join('\n'),
      /stream 0 send end \(controller\): no RTT/,
    );
    assert.match(
      spoil((d) => {
        d.streams[0]!.send!.tcp = [];
      }).join('\n'),
      /no cwnd in any TCP_INFO sample \(0 samples\)/,
    );
    assert.match(
      spoil((d) => {
        d.window.applied = false;
      }).join('\n'),
      /window\.applied is not true/,
    );
    assert.match(
      spoil((d) => {
        d.partial = true;
        d.partialReason = 'peer gone';
      }).join('\n'),
      /partial: peer gone/,
    );
    assert.match(smokeResultProblems(good, 32 * 1024).join('\n'), /requestedBytes is 65536, expected 32768/);

    const bad = path.join(path.dirname(file), 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...good, streams: [] }));
    const failed = await run([CHECK, bad]);
    assert.equal(failed.code, 1, failed.out);
    assert.match(failed.out, /smoke check failed[\s\S]*no streams/);
  });

  it('fails a run without the addon: no window before the handshake, no RTT, no cwnd', async (t) => {
    const file = await smokeRun(t, { LONGHAUL_NO_NATIVE: '1' });
    const r = await run([CHECK, file]);
    assert.equal(r.code, 1, r.out);
    for (const re of [
      /window\.applied is not true/,
      /send end \(controller\): the window was not applied before the handshake \(the native socket addon is disabled/,
      /receive end \(responder\): the window was not applied/,
      /no RTT in any TCP_INFO sample \(0 samples\); unavailable: tcp: the native socket addon is disabled/,
      /no cwnd/,
    ]) {
      assert.match(r.out, re);
    }
  });
});
