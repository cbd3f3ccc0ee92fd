/**
 * The responder's first look at a connection, fed bytes without a socket (the ws library's way):
 * a data header split at every offset, a control frame's first bytes, a header with payload behind
 * it, truncated input, garbage. A data connection must be left paused with its reads stopped, so its
 * payload stays in the kernel for the worker it is handed to.
 */
import assert from 'node:assert/strict';
import type net from 'node:net';
import { describe, it, mock } from 'node:test';
import { sortConnection } from '../../../electron/engine/session/connection-sorter.js';
import { DATA_HEADER_BYTES, encodeDataHeader } from '../../../electron/protocol/data-header.js';
import { encodeFrame } from '../../../electron/protocol/framing.js';
import { MemorySocket } from '../../helpers/memory-socket.js';

/** A memory socket with the private handle connection-sorter stops reads on (native/node-handle.ts). */
class HandleSocket extends MemorySocket {
  readStops = 0;
  _handle = { readStop: (): number => ++this.readStops };
}

type Sorted = Awaited<ReturnType<typeof sortConnection>>;

const COOKIE = '00112233445566778899aabbccddeeff';
const header = encodeDataHeader(COOKIE, 7);
const control = encodeFrame({ type: 'hello', protocol: 1, software: 'longhaul/test', hostname: 'a', capabilities: [] });

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Feed `chunks` one by one; the result and after how many chunks it came (null: still waiting). */
async function feed(chunks: Buffer[], timeoutMs = 60_000): Promise<{ sorted: Sorted | null; after: number | null; socket: HandleSocket }> {
  const socket = new HandleSocket();
  let sorted: Sorted | null = null;
  let after: number | null = null;
  let fed = 0;
  void sortConnection(socket as unknown as net.Socket, timeoutMs).then((r) => {
    sorted = r;
    after = fed;
  });
  for (const c of chunks) {
    socket.push(c);
    fed++;
    await tick();
  }
  await tick();
  return { sorted, after, socket };
}

/** `bytes` cut at each of `cuts` (ascending offsets). */
function cutAt(bytes: Buffer, ...cuts: number[]): Buffer[] {
  const at = [0, ...cuts, bytes.length];
  return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
}

describe('sortConnection', () => {
  it('a data header split at every offset is data, once all 24 bytes are in, paused with reads stopped', async () => {
    for (let cut = 0; cut <= DATA_HEADER_BYTES; cut++) {
      const { sorted, after, socket } = await feed(cutAt(header, cut));
      assert.deepEqual(sorted, { kind: 'data', header }, `split at ${cut}`);
      assert.equal(after, cut === DATA_HEADER_BYTES ? 1 : 2, `split at ${cut}: on the chunk with the last byte, not before`);
      assert.ok(socket.isPaused(), `split at ${cut}: paused`);
      assert.equal(socket.readStops, 1, `split at ${cut}: reads stopped for the handover`);
      assert.equal(socket.listenerCount('data'), 0, `split at ${cut}: no listener left`);
    }
  });

  it('a data header byte by byte is data on its 24th byte', async () => {
    const { sorted, after } = await feed([...header].map((b) => Buffer.from([b])));
    assert.deepEqual(sorted, { kind: 'data', header });
    assert.equal(after, DATA_HEADER_BYTES);
  });

  it('a control frame is control as soon as 4 bytes show it is not "LHD1", with every byte read so far', async () => {
    for (let cut = 0; cut <= control.length; cut++) {
      const chunks = cutAt(control, cut);
      const { sorted, after, socket } = await feed(chunks);
      const firstChunkTells = chunks[0]!.length >= 4;
      assert.deepEqual(sorted, { kind: 'control', firstBytes: firstChunkTells ? chunks[0] : control }, `split at ${cut}`);
      assert.equal(after, firstChunkTells ? 1 : 2, `split at ${cut}`);
      assert.ok(socket.isPaused(), `split at ${cut}: paused for the control channel to take over`);
      assert.equal(socket.readStops, 0, `split at ${cut}: a control connection keeps being read by this process`);
    }
  });

  it('"LHD" then any other fourth byte is control', async () => {
    for (const fourth of [0x00, 0x30, 0x32, 0x64, 0xff]) {
      const { sorted } = await feed([Buffer.from([0x4c, 0x48, 0x44, fourth])]);
      assert.equal(sorted?.kind, 'control', `LHD + 0x${fourth.toString(16)}`);
    }
  });

  it('payload behind the header before the run started drops the connection, unless the header came alone', async () => {
    const oversized = Buffer.concat([header, Buffer.from('payload')]);
    for (let cut = 0; cut <= oversized.length; cut++) {
      const { sorted } = await feed(cutAt(oversized, cut));
      // Cut exactly after the header, the sorter has its 24 bytes and stops reading: the rest is the worker's.
      const expected: Sorted =
        cut === DATA_HEADER_BYTES ? { kind: 'data', header } : { kind: 'dead', reason: 'data connection sent bytes before the run started' };
      assert.deepEqual(sorted, expected, `split at ${cut}`);
    }
  });

  it('a truncated header waits, then is dead when the peer closes or errors', async () => {
    for (let n = 0; n < DATA_HEADER_BYTES; n++) {
      const socket = new HandleSocket();
      let sorted: Sorted | null = null;
      void sortConnection(socket as unknown as net.Socket, 60_000).then((r) => (sorted = r));
      if (n) socket.push(header.subarray(0, n));
      await tick();
      assert.equal(sorted, null, `${n} bytes: still waiting`);
      socket.destroy();
      await tick();
      assert.deepEqual(sorted, { kind: 'dead', reason: 'closed before identifying itself' }, `${n} bytes then close`);
    }
    const errored = new HandleSocket();
    const p = sortConnection(errored as unknown as net.Socket, 60_000);
    errored.push(header.subarray(0, 10));
    errored.emit('error', new Error('ECONNRESET'));
    assert.deepEqual(await p, { kind: 'dead', reason: 'closed before identifying itself' });
  });

  it('a connection that sends nothing identifiable is dead at its timeout, not before', async (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    for (const bytes of [Buffer.alloc(0), Buffer.from('LH'), header.subarray(0, DATA_HEADER_BYTES - 1)]) {
      const socket = new HandleSocket();
      let sorted: Sorted | null = null;
      void sortConnection(socket as unknown as net.Socket, 500).then((r) => (sorted = r));
      if (bytes.length) socket.push(bytes);
      await tick();
      mock.timers.tick(499);
      await tick();
      assert.equal(sorted, null, `${bytes.length} bytes at 499 ms`);
      mock.timers.tick(1);
      await tick();
      assert.deepEqual(sorted, { kind: 'dead', reason: 'sent nothing identifiable within 500 ms' }, `${bytes.length} bytes at 500 ms`);
      assert.equal(socket.listenerCount('data'), 0);
      assert.equal(socket.listenerCount('close'), 0);
    }
  });

  it('once sorted, later bytes, a close or the timeout change nothing', async (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const socket = new HandleSocket();
    const results: Sorted[] = [];
    void sortConnection(socket as unknown as net.Socket, 500).then((r) => results.push(r));
    socket.push(header);
    await tick();
    socket.emit('data', Buffer.from('late'));
    socket.emit('close');
    mock.timers.tick(1_000);
    await tick();
    assert.deepEqual(results, [{ kind: 'data', header }]);
  });

  it('garbage is control or waits, never throws, never data unless it starts "LHD1"', async () => {
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 300; i++) {
      const buf = Buffer.alloc(Math.floor(rand() * 40));
      for (let j = 0; j < buf.length; j++) buf[j] = Math.floor(rand() * 256);
      if (i % 3 === 0 && buf.length >= 4) buf.write('LHD1', 0, 'ascii');
      const { sorted } = await feed([buf]);
      const magic = buf.subarray(0, 4).toString('latin1') === 'LHD1';
      const expected = buf.length < 4 ? null : !magic ? 'control' : buf.length < DATA_HEADER_BYTES ? null : buf.length === DATA_HEADER_BYTES ? 'data' : 'dead';
      assert.equal(sorted?.kind ?? null, expected, `garbage ${buf.toString('hex')}`);
    }
  });
});
