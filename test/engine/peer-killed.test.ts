/**
 * The peer process killed mid-run: the other side ends the run within a few
 * seconds with partial results holding what was measured, exit code 1, no hang.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli, waitForOutput } from '../helpers/cli.js';
import { startResponder, within } from '../helpers/net.js';
import { responderPairedWith } from '../helpers/trust.js';
import { loadTrust } from '../../electron/security/load-trust.js';

/** The pids of `pid`'s children (Linux /proc; empty elsewhere). */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`)
      .flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Running, as /proc says: an exited worker waiting to be reaped (state Z, its parent killed) is gone. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitUntil(ms: number, ok: () => boolean, why: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(why());
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('peer killed mid-run', { timeout: 90_000 }, () => {
  for (const direction of ['forward', 'reverse'] as const) {
    it(`responder killed (${direction}): its data workers go at once, \`longhaul run\` ends within 3 s, writes a partial result, exits 1`, async () => {
      const listen = cli(['listen', '--port', '0', '--bind', '127.0.0.1', '--once']);
      const jsonFile = path.join(os.tmpdir(), `longhaul-killed-${process.pid}-${direction}.json`);
      try {
        const [, port] = await waitForOutput(listen.child, /listening on [^\s]+:(\d+)/);
        const run = cli(['run', `127.0.0.1:${port}`, '--seconds', '30', '--interval', '0.5', '--json', jsonFile, ...(direction === 'reverse' ? ['-R'] : [])]);
        await waitForOutput(run.child, /\[\s*0\.00-\s*0\.5\d s\]/); // first interval line: data is flowing
        const workers = childPids(listen.child.pid!);
        assert.ok(workers.length > 0, 'the responder has data workers while the run goes');
        const killedAt = Date.now();
        listen.child.kill('SIGKILL');
        // Orphaned workers would go on moving bytes (a sender keeps sending): they must leave with their parent.
        await waitUntil(
          2000,
          () => workers.every((pid) => !alive(pid)),
          () => `workers still alive 2 s after the kill: ${workers.filter(alive).join(', ')}`,
        );
        const r = await run.done;
        const tookMs = Date.now() - killedAt;
        assert.equal(r.code, 1, `exit code 1; stderr: ${r.stderr}`);
        assert.ok(tookMs < 3000, `ended ${tookMs} ms after the kill`);
        assert.match(r.stdout, /PARTIAL RESULT/);
        const result = JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult;
        assert.equal(result.partial, true);
        assert.ok(result.partialReason);
        assert.ok((direction === 'forward' ? result.streams[0]!.send!.bytes : result.streams[0]!.bytes) > 0, 'what moved before the kill is kept');
        assert.ok(result.intervals.length >= 1, 'intervals measured before the kill are kept');
        const aboutPartner = result.errors.filter((e) => e.code === 'LH_ERR_PEER_GONE' || e.code === 'LH_ERR_DATA_STREAM');
        assert.ok(aboutPartner.length > 0, JSON.stringify(result.errors));
        // Each names the partner as the header does, its host name and address: the control channel's and, when the
        // sender's socket was reset before the run ended, its stream's ("the data connection with … failed").
        const partner = `the responder ${os.hostname()} (127.0.0.1:${port})`;
        for (const e of aboutPartner) assert.ok(e.message.includes(partner), `${e.message} names ${partner}`);
        assert.ok(!r.stdout.includes('the peer') && !r.stderr.includes('the peer'), r.stdout + r.stderr);
      } finally {
        listen.child.kill('SIGKILL');
        await rm(jsonFile, { force: true });
      }
    });
  }

  it('controller killed: the responder ends the session within seconds with a partial result and keeps serving', async () => {
    // The CLI controller is this test run's installation ($LONGHAUL_TRUST_DIR): pair the responder with it.
    const { responder, port } = await startResponder({ security: await responderPairedWith(await loadTrust()) });
    try {
      const ended = new Promise<[LonghaulResult | null, Error | null]>((resolve) => responder.once('session-end', (r, e) => resolve([r, e])));
      const run = cli(['run', `127.0.0.1:${port}`, '--seconds', '30', '--interval', '0.5']);
      await waitForOutput(run.child, /\[\s*0\.00-\s*0\.5\d s\]/);
      const killedAt = Date.now();
      run.child.kill('SIGKILL');
      const [result, err] = await within(ended, 10_000, 'responder session end');
      assert.ok(Date.now() - killedAt < 8000);
      assert.ok(err, 'the session ended with an error');
      assert.ok(result, 'a result was built');
      assert.equal(result.partial, true);
      assert.ok(result.streams[0]!.receive!.bytes > 0, 'bytes received before the kill are kept');
      // A controller is named by its address alone: its port is an ephemeral one.
      const controller = `the controller ${os.hostname()} (127.0.0.1)`;
      const aboutPartner = result.errors.filter((e) => e.code === 'LH_ERR_PEER_GONE' || e.code === 'LH_ERR_DATA_STREAM');
      assert.ok(aboutPartner.length > 0, JSON.stringify(result.errors));
      for (const e of aboutPartner) assert.ok(e.message.includes(controller), `${e.message} names ${controller}`);
      // And the responder takes the next run.
      const again = cli(['run', `127.0.0.1:${port}`, '--bytes', '1M']);
      const r2 = await again.done;
      assert.equal(r2.code, 0, r2.stdout + r2.stderr);
    } finally {
      await responder.close();
    }
  });
});
