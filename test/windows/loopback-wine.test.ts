/**
 * `longhaul loopback` end to end in the Windows build of Node under Wine: both ends,
 * their data workers and the addon's Windows code (Winsock, owned data connections),
 * writing the result to a C:\ path with spaces in it. Every byte must be counted on
 * both ends of every stream.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { BIN } from '../helpers/processes.js';
import { laneReady, resultsDirWithSpaces, runWindowsNode, toWindowsPath, useWindowsLane } from './wine-node.js';

const TOTAL = 200 * 1024 * 1024;

describe('longhaul loopback under Wine', { timeout: 240_000 }, () => {
  useWindowsLane();

  it('moves -n 200M over 2 streams and the JSON counts every byte on both ends', async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    assert.match(dir.win, /^C:\\users\\[^\\]+\\My Results\\run /);
    const env = { LONGHAUL_TRUST_DIR: `${dir.win}\\trust`, LONGHAUL_DATA_DIR: `${dir.win}\\data` };
    const args = [toWindowsPath(BIN), 'loopback', '-P', '2', '-n', '200M', '--json', `${dir.win}\\r.json`];
    const run = await runWindowsNode(args, { env, timeoutMs: 150_000 });
    assert.equal(run.code, 0, `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);

    const r = JSON.parse(readFileSync(path.join(dir.linux, 'r.json'), 'utf8')) as LonghaulResult;
    assert.equal(r.schema, 'longhaul.result/1');
    assert.equal(r.partial, false, r.partialReason ?? '');
    assert.deepEqual(r.errors, []);
    assert.deepEqual([r.params.streams, r.params.bytes, r.params.direction], [2, TOTAL, 'forward']);
    assert.equal(r.streams.length, 2);
    for (const s of r.streams) {
      assert.ok(s.send && s.receive, `stream ${s.id} lacks an end's report`);
      // -n splits evenly over the streams; each end of each stream saw all of its share.
      assert.equal(s.bytes, TOTAL / 2, `stream ${s.id} received`);
      assert.equal(s.send.bytes, TOTAL / 2, `stream ${s.id} sent`);
      assert.equal(s.receive.bytes, TOTAL / 2, `stream ${s.id} receiver's own count`);
      assert.equal(s.send.error, null);
      assert.equal(s.receive.error, null);
      assert.ok(s.send.io === 'native' || s.send.io === 'node', `stream ${s.id} send io ${s.send.io}`);
      assert.ok(s.receive.io === 'native' || s.receive.io === 'node', `stream ${s.id} receive io ${s.receive.io}`);
    }
    assert.equal(r.total.bytes, TOTAL);
    assert.equal(r.total.sentBytes, TOTAL);
    assert.equal(
      r.intervals.reduce((sum, i) => sum + (i.receivedBytes ?? 0), 0),
      TOTAL,
    );
    assert.ok(r.total.bitsPerSecond && r.total.bitsPerSecond > 0);

    const io = r.streams.map((s) => `stream ${s.id}: send ${s.send!.io}, receive ${s.receive!.io}`).join('; ');
    t.diagnostic(
      `${(r.total.bitsPerSecond! / 1e9).toFixed(2)} Gbit/s wall-clock (${(r.total.streamSumBitsPerSecond! / 1e9).toFixed(2)} per-stream sum) in ${(run.ms / 1000).toFixed(1)} s under Wine; ${io}; window: ${r.window.note ?? r.window.applied}`,
    );
  });

  it("-u --bidir -b 5M: UDP both ways on Winsock (the reverse half through the receiver's hello), every datagram accounted for", async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const env = { LONGHAUL_TRUST_DIR: `${dir.win}\\trust`, LONGHAUL_DATA_DIR: `${dir.win}\\data` };
    const args = [toWindowsPath(BIN), 'loopback', '-u', '--bidir', '-b', '5M', '-t', '2', '--json', `${dir.win}\\u.json`];
    const run = await runWindowsNode(args, { env, timeoutMs: 90_000 });
    assert.equal(run.code, 0, `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    const r = JSON.parse(readFileSync(path.join(dir.linux, 'u.json'), 'utf8')) as LonghaulResult;
    assert.equal(r.partial, false, r.partialReason ?? '');
    assert.equal(r.params.protocol, 'udp');
    assert.deepEqual(
      r.streams.map((s) => s.sender),
      ['controller', 'responder'],
    );
    for (const s of r.streams) {
      const u = s.udp;
      assert.ok(u && u.lastSeq !== null && u.lastSeq > 0, `stream ${s.id}: the sender's last number`);
      assert.equal(u.datagrams + u.lost, u.lastSeq, `stream ${s.id}: arrived + lost = the sender's last number`);
      assert.ok(u.jitterMs !== null, `stream ${s.id}: a jitter`);
    }
    t.diagnostic(
      r.streams.map((s) => `stream ${s.id} (${s.sender}): ${((s.bitsPerSecond ?? 0) / 1e6).toFixed(2)} Mbit/s, udp ${JSON.stringify(s.udp)}`).join('; '),
    );
  });

  it("-u -R through the link emulator (4 Mbit/s, 10 ms): the relay on Winsock carries the link's payload rate, the rest dropped at its queue", async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const env = { LONGHAUL_TRUST_DIR: `${dir.win}\\trust`, LONGHAUL_DATA_DIR: `${dir.win}\\data` };
    // -R: the responder sends; its datagrams reach the relay's back socket, which learned the controller's
    // receiver from its hello through the front port (the NAT path of proxy/udp/udp-relay.ts).
    const args = [toWindowsPath(BIN), 'loopback', '-u', '-R', '--rate', '4mbit', '--delay', '10ms', '-b', '8M', '-t', '2', '--json', `${dir.win}\\l.json`];
    const run = await runWindowsNode(args, { env, timeoutMs: 90_000 });
    assert.equal(run.code, 0, `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    const r = JSON.parse(readFileSync(path.join(dir.linux, 'l.json'), 'utf8')) as LonghaulResult;
    assert.equal(r.partial, false, r.partialReason ?? '');
    const total = r.directions.responderToController;
    const relay = r.link?.udpRelay?.down;
    t.diagnostic(`${((total?.bitsPerSecond ?? 0) / 1e6).toFixed(3)} Mbit/s, udp ${JSON.stringify(total?.udp)}, relay ${JSON.stringify(relay)}`);
    assert.ok(total?.udp && relay, 'the direction has UDP totals and the relay its counts');
    // The link's wire carries 4 Mbit/s of frames, 1,460 of every 1,502 bytes payload: 3.888 Mbit/s; ±5 % for the
    // rate read between the first and last arrival of a 2-s run.
    const payload = (4e6 * 1460) / 1502;
    assert.ok(Math.abs((total.bitsPerSecond ?? 0) / payload - 1) <= 0.05, `${total.bitsPerSecond} bit/s of the ${payload} the link carries`);
    // 8 Mbit/s asked into 3.9: about half dropped at the link's queue, and that is what the receiver counts lost (no other loss on loopback).
    assert.ok(relay.queueDropped > 0.3 * (total.udp.datagrams + total.udp.lost), `queue drops ${relay.queueDropped}`);
    assert.ok(total.udp.lost >= relay.queueDropped, `lost ${total.udp.lost} ≥ the queue's ${relay.queueDropped}`);
    assert.equal(relay.emulatorDropped, null, "Windows does not count a socket's drops: unknown, not 0");
  });
});
