/**
 * The UDP worker in this process, its messages collected: a start that overtakes a sender's
 * connect still starts it, and a stop ends every stream with its counts (the receiver's
 * `udp-last` lets it end at once when nothing is missing, else after the quiet grace).
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { describe, it } from 'node:test';
import { UdpWorker } from '../../../../electron/engine/data-plane/data-worker/udp-worker.js';
import { UdpReceiver } from '../../../../electron/engine/data-plane/udp/udp-receiver.js';
import { writeLonghaulHeader } from '../../../../electron/engine/data-plane/udp/datagram.js';
import type { FromWorker, WorkerInit } from '../../../../electron/engine/data-plane/worker-messages.js';

const TAG = Buffer.from('8899aabbccddeeff', 'hex');

function init(role: 'send' | 'receive'): WorkerInit {
  return {
    type: 'init',
    role,
    bufferBytes: 1000,
    intervalMs: 100,
    seconds: 0.5,
    windowBytes: null,
    streams: 1,
    mssBytes: null,
    bitrateBitsPerSec: 8e6,
    protocol: 'udp',
    partner: 'the responder at 127.0.0.1',
  };
}

function until(ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = (): void => (ok() ? resolve() : Date.now() > end ? reject(new Error(`not within ${ms} ms`)) : void setTimeout(check, 10));
    check();
  });
}

describe('UDP worker', { timeout: 15_000 }, () => {
  it('a start before the connect completes: the sender begins on connect and ends at its deadline', async () => {
    const receiver = new UdpReceiver({ tag: TAG, streamIds: [4] });
    const port = (await receiver.listen()).get(4)!;
    const msgs: FromWorker[] = [];
    const w = new UdpWorker(init('send'), { send: (m) => msgs.push(m) });
    try {
      w.handle({ type: 'udp-send', id: 4, host: '127.0.0.1', port, tagB64: TAG.toString('base64'), bytes: null });
      w.handle({ type: 'start', startNs: process.hrtime.bigint().toString() });
      // 0.5 s at 8 Mbit/s; the end needs the deadline plus a few turns (bounded well above it).
      await until(() => msgs.some((m) => m.type === 'done'), 5000);
      const done = msgs.find((m) => m.type === 'done');
      const end = done?.type === 'done' ? done.streams[0] : undefined;
      assert.equal(end?.role, 'send');
      assert.ok((end?.udp?.lastSeq ?? 0) > 0, 'it sent');
      await until(() => (receiver.counts(4)?.datagrams ?? 0) >= (end?.udp?.lastSeq ?? 1), 2000);
      assert.equal(receiver.counts(4)?.datagrams, end?.udp?.lastSeq);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver ends at once when the last number arrived (gaps below it were lost, not in flight); with the tail missing, after the quiet grace', async () => {
    for (const arrive of [
      [1, 2, 3],
      [1, 3],
      [1, 2],
    ]) {
      const msgs: FromWorker[] = [];
      const w = new UdpWorker(init('receive'), { send: (m) => msgs.push(m) });
      w.handle({ type: 'udp-listen', ids: [0], host: '127.0.0.1', tagB64: TAG.toString('base64') });
      await until(() => msgs.some((m) => m.type === 'udp-port'), 2000);
      const port = (msgs.find((m) => m.type === 'udp-port') as Extract<FromWorker, { type: 'udp-port' }>).port;
      w.handle({ type: 'start', startNs: process.hrtime.bigint().toString() });
      const socket = dgram.createSocket('udp4');
      for (const seq of arrive) {
        const buf = Buffer.alloc(100);
        writeLonghaulHeader(buf, { streamId: 0, seq, sentNs: process.hrtime.bigint() }, TAG);
        await new Promise<void>((r) => socket.send(buf, port, '127.0.0.1', () => r()));
      }
      socket.close();
      const tailMissing = !arrive.includes(3);
      const began = Date.now();
      // The last number here: the 60 s grace is not waited. The tail missing: it may still be in flight, so the
      // receiver waits until nothing arrived for its grace (400 ms here).
      w.handle({ type: 'stop', graceMs: tailMissing ? 400 : 60_000 });
      w.handle({ type: 'udp-last', lastSeq: [[0, 3]] });
      await until(() => msgs.some((m) => m.type === 'done'), 5000);
      const done = msgs.find((m) => m.type === 'done');
      const counts = done?.type === 'done' ? done.streams[0]?.udp?.counts : undefined;
      assert.equal(counts?.datagrams, arrive.length);
      assert.equal(counts?.lost, 3 - arrive.length, `${arrive.join(',')}: every number not arrived up to the last is lost, the tail too`);
      if (tailMissing) assert.ok(Date.now() - began >= 350, `ended ${Date.now() - began} ms after the stop, before its quiet grace`);
    }
  });

  it('the tail missing but every last number known: half a second of quiet ends it, not the whole stop grace', async () => {
    const msgs: FromWorker[] = [];
    const w = new UdpWorker(init('receive'), { send: (m) => msgs.push(m) });
    w.handle({ type: 'udp-listen', ids: [0], host: '127.0.0.1', tagB64: TAG.toString('base64') });
    await until(() => msgs.some((m) => m.type === 'udp-port'), 2000);
    const port = (msgs.find((m) => m.type === 'udp-port') as Extract<FromWorker, { type: 'udp-port' }>).port;
    w.handle({ type: 'start', startNs: process.hrtime.bigint().toString() });
    const socket = dgram.createSocket('udp4');
    for (const seq of [1, 2]) {
      const buf = Buffer.alloc(100);
      writeLonghaulHeader(buf, { streamId: 0, seq, sentNs: process.hrtime.bigint() }, TAG);
      await new Promise<void>((r) => socket.send(buf, port, '127.0.0.1', () => r()));
    }
    socket.close();
    const began = Date.now();
    w.handle({ type: 'stop', graceMs: 60_000 });
    w.handle({ type: 'udp-last', lastSeq: [[0, 3]] });
    // At least the 500 ms of quiet; at most a busy PC's few seconds, far below the 60 s grace.
    await until(() => msgs.some((m) => m.type === 'done'), 10_000);
    const took = Date.now() - began;
    assert.ok(took >= 450, `ended ${took} ms after the stop, before 500 ms of quiet`);
    const done = msgs.find((m) => m.type === 'done');
    assert.equal(done?.type === 'done' ? done.streams[0]?.udp?.counts?.lost : undefined, 1, 'the tail that never came is lost');
  });
});
