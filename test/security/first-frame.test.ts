/**
 * The first control frame read before authentication, fed bytes without a socket (the ws library's
 * way): split at every offset, byte by byte, bytes behind the frame, truncated, oversized, garbage,
 * and the timeout on a driven clock. Every byte read is kept, so the connection can be handed on
 * as if untouched.
 */
import assert from 'node:assert/strict';
import type net from 'node:net';
import { describe, it, mock } from 'node:test';
import { encodeFrame } from '../../electron/protocol/framing.js';
import { readFirstFrame } from '../../electron/security/first-frame.js';
import { LonghaulError, ProtocolError } from '../../electron/util/errors.js';
import { MemorySocket } from '../helpers/memory-socket.js';

type FirstFrame = Awaited<ReturnType<typeof readFirstFrame>>;

const hello = { type: 'hello', protocol: 1, software: 'longhaul/test', hostname: 'a', capabilities: ['x'] };
const frame = encodeFrame(hello);

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Feed `chunks` one by one to a fresh read; its answer and after how many chunks it came (null: still waiting). */
async function feed(chunks: Buffer[], maxFrameBytes?: number): Promise<{ first: FirstFrame | null; after: number | null; socket: MemorySocket }> {
  const socket = new MemorySocket();
  let first: FirstFrame | null = null;
  let after: number | null = null;
  let fed = 0;
  void readFirstFrame(socket as unknown as net.Socket, 60_000, maxFrameBytes).then((r) => {
    first = r;
    after = fed;
  });
  for (const c of chunks) {
    socket.push(c);
    fed++;
    await tick();
  }
  await tick();
  return { first, after, socket };
}

/** A frame whose length prefix says `length` (the body is not needed to reject it). */
function prefix(length: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(length, 0);
  return b;
}

/** The error code of a failed read, or what else it was. */
function codeOf(first: FirstFrame | null): string {
  if (first === null) return 'waiting';
  if (first.ok) return 'ok';
  return first.error === null ? 'closed' : first.error.code;
}

describe('readFirstFrame', () => {
  it('a frame split at every offset is read once complete, with its raw bytes, and the socket left paused', async () => {
    for (let cut = 0; cut <= frame.length; cut++) {
      const { first, after, socket } = await feed([frame.subarray(0, cut), frame.subarray(cut)]);
      assert.deepEqual(first, { ok: true, message: hello, raw: frame }, `split at ${cut}`);
      assert.equal(after, cut === frame.length ? 1 : 2, `split at ${cut}: on the chunk that completes it, not before`);
      assert.ok(socket.isPaused(), `split at ${cut}: paused for whoever takes the connection`);
      assert.equal(socket.listenerCount('data'), 0, `split at ${cut}: no listener left`);
      assert.equal(socket.listenerCount('close'), 0, `split at ${cut}: no listener left`);
    }
  });

  it('byte by byte, it answers on the last byte', async () => {
    const { first, after } = await feed([...frame].map((b) => Buffer.from([b])));
    assert.deepEqual(first, { ok: true, message: hello, raw: frame });
    assert.equal(after, frame.length);
  });

  it('keeps every byte read, also those behind the first frame, so none is lost to whoever reads next', async () => {
    const second = encodeFrame({ type: 'start' });
    const both = Buffer.concat([frame, second, Buffer.from([0xde, 0xad])]);
    for (let cut = 0; cut <= both.length; cut++) {
      const { first } = await feed([both.subarray(0, cut), both.subarray(cut)]);
      // The answer comes on the chunk that completes the first frame: raw is every byte read up to then.
      const raw = cut >= frame.length ? both.subarray(0, cut) : both;
      assert.deepEqual(first, { ok: true, message: hello, raw }, `split at ${cut}`);
    }
  });

  it('reads bytes that arrived before it was called (a paused socket is resumed)', async () => {
    const socket = new MemorySocket();
    socket.pause();
    socket.push(frame);
    await tick();
    assert.deepEqual(await readFirstFrame(socket as unknown as net.Socket, 60_000), { ok: true, message: hello, raw: frame });
  });

  it('a frame at the cap is read; one byte over is refused from its length prefix alone', async () => {
    const cap = frame.length - 4;
    assert.equal(codeOf((await feed([frame], cap)).first), 'ok');
    assert.equal(codeOf((await feed([frame], cap - 1)).first), 'LH_ERR_FRAME_TOO_LARGE');
    assert.equal(codeOf((await feed([prefix(16 * 1024 + 1)])).first), 'LH_ERR_FRAME_TOO_LARGE', 'the default cap: 16 KiB before authentication');
    assert.equal(codeOf((await feed([prefix(16 * 1024)])).first), 'waiting', 'a 16 KiB frame is allowed: its body is awaited');
    assert.equal(codeOf((await feed([prefix(0xffffffff)])).first), 'LH_ERR_FRAME_TOO_LARGE');
  });

  it('garbage is a ProtocolError with its code, never a throw', async () => {
    const body = (b: Buffer): Buffer => Buffer.concat([prefix(b.length), b]);
    const cases: [Buffer, string][] = [
      [prefix(0), 'LH_ERR_BAD_FRAME'],
      [body(Buffer.from('not json')), 'LH_ERR_BAD_FRAME'],
      [body(Buffer.from('[1,2]')), 'LH_ERR_BAD_FRAME'],
      [body(Buffer.from([0xc3, 0x28])), 'LH_ERR_BAD_FRAME'],
      [Buffer.from('GET / HTTP/1.1\r\n\r\n'), 'LH_ERR_FRAME_TOO_LARGE'],
    ];
    for (const [bytes, code] of cases) {
      const { first, socket } = await feed([bytes]);
      assert.equal(codeOf(first), code, bytes.toString('hex'));
      assert.ok(first && !first.ok && first.error instanceof ProtocolError);
      assert.ok(socket.isPaused(), 'paused: nothing more is read from a peer that sent garbage');
    }
    let seed = 11;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 200; i++) {
      const buf = Buffer.alloc(1 + Math.floor(rand() * 48));
      for (let j = 0; j < buf.length; j++) buf[j] = Math.floor(rand() * 256);
      const { first } = await feed([buf], 1024);
      assert.ok(first === null || !first.ok || typeof first.message === 'object', `garbage ${buf.toString('hex')}`);
      if (first && !first.ok) assert.ok(first.error instanceof ProtocolError, `garbage ${buf.toString('hex')}: ${String(first.error)}`);
    }
  });

  it('a truncated frame waits; the peer closing then answers with no error (nothing to report)', async () => {
    for (let n = 0; n < frame.length; n++) {
      const socket = new MemorySocket();
      let first: FirstFrame | null = null;
      void readFirstFrame(socket as unknown as net.Socket, 60_000).then((r) => (first = r));
      if (n) socket.push(frame.subarray(0, n));
      await tick();
      assert.equal(first, null, `${n} bytes: still waiting`);
      socket.destroy();
      await tick();
      assert.deepEqual(first, { ok: false, error: null }, `${n} bytes then close`);
    }
  });

  it('no complete frame by the deadline is LH_ERR_TIMEOUT, not a moment before; a deadline already past still waits 1 ms', async (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const deadlines: [number, number][] = [
      [500, 500],
      [0, 1],
      [-20, 1],
    ];
    for (const [timeoutMs, waitsMs] of deadlines) {
      const socket = new MemorySocket();
      let first: FirstFrame | null = null;
      void readFirstFrame(socket as unknown as net.Socket, timeoutMs).then((r) => (first = r));
      socket.push(frame.subarray(0, frame.length - 1));
      await tick();
      mock.timers.tick(waitsMs - 1);
      await tick();
      assert.equal(first, null, `deadline ${timeoutMs} ms: waiting at ${waitsMs - 1} ms`);
      mock.timers.tick(1);
      await tick();
      const answer = first as FirstFrame | null;
      assert.equal(codeOf(answer), 'LH_ERR_TIMEOUT', `deadline ${timeoutMs} ms: at ${waitsMs} ms`);
      assert.ok(answer && !answer.ok && answer.error instanceof LonghaulError);
      assert.equal(answer.error.message, `no complete first message within ${timeoutMs} ms`);
      assert.equal(socket.listenerCount('data'), 0);
    }
  });

  it('once answered, a late byte, a close or the deadline change nothing', async (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const socket = new MemorySocket();
    const answers: FirstFrame[] = [];
    void readFirstFrame(socket as unknown as net.Socket, 500).then((r) => answers.push(r));
    socket.push(frame);
    await tick();
    socket.emit('data', Buffer.from('late'));
    socket.emit('close');
    mock.timers.tick(1_000);
    await tick();
    assert.deepEqual(answers, [{ ok: true, message: hello, raw: frame }]);
  });
});
