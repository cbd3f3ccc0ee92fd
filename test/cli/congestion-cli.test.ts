/**
 * `-C, --congestion NAME`: every stream end's socket is given the congestion control (Linux
 * TCP_CONGESTION) and the result says what each end used, read back from the kernel; a name this
 * kernel does not have, or a system that chooses it for the whole machine (Windows), exits 2 with
 * words naming the flag.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { congestionRefusal } from '../../electron/engine/data-plane/data-worker/congestion.js';
import type { NativeApi } from '../../electron/native/native-api.js';
import { cli } from '../helpers/cli.js';

describe('longhaul -C/--congestion', { timeout: 90_000 }, () => {
  for (const [args, words] of [
    [['loopback', '-C', 'bbrr'], /--congestion bbrr: .*No such file or directory.*tcp_available_congestion_control/],
    [['run', '127.0.0.1', '--congestion', 'x/y'], /--congestion: "x\/y" is not a congestion control name/],
  ] as const) {
    it(`${args.join(' ')} → exit 2 naming --congestion`, async () => {
      const r = await cli([...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.match(r.stderr, words);
    });
  }

  it('on Windows the refusal says it is a system setting and names it', () => {
    const windowsAddon = { congestionControl: null } as unknown as NativeApi;
    assert.match(
      congestionRefusal(windowsAddon, 'bbr', 'win32') ?? '',
      /Windows chooses the congestion control per system .*netsh int tcp set supplemental .*congestionprovider/,
    );
  });

  it('loopback -C reno -R: both ends of every stream used reno, as the kernel reads it back, and the summary says so', async () => {
    const file = path.join(os.tmpdir(), `longhaul-cc-${process.pid}.json`);
    try {
      const r = await cli(['loopback', '-C', 'reno', '-R', '-P', '2', '-t', '1', '--json', file], 40_000).done;
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Congestion control \(--congestion\): reno asked; controller used reno, responder used reno/);
      const result = JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
      assert.equal(result.params.congestionControl, 'reno');
      const used = result.streams.flatMap((s) => [s.send?.socket?.congestionControl, s.receive?.socket?.congestionControl]);
      assert.deepEqual(used, ['reno', 'reno', 'reno', 'reno']);
    } finally {
      await rm(file, { force: true });
    }
  });
});
