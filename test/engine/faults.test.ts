/**
 * Bad input and faults against a real responder on 127.0.0.1: it answers with a
 * clear error where it can, closes that connection, and keeps serving.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { encodeDataHeader } from '../../electron/protocol/data-header.js';
import { encodeFrame, FrameParser } from '../../electron/protocol/framing.js';
import type { ControllerSecurity } from '../../electron/security/controller-security.js';
import { rawConnect, readUntilClose, startResponder, tlsConnect, within } from '../helpers/net.js';

const hello = { type: 'hello', protocol: 1, software: 'test', hostname: 'test', capabilities: [] };
const goodParams = { ...DEFAULT_PARAMS, seconds: 1 };

let responder: Responder;
let port: number;
let security: ControllerSecurity;
before(async () => {
  ({ responder, port, security } = await startResponder({
    identifyTimeoutMs: 500,
    timeoutsMs: { hello: 800, params: 800, streams: 2000 },
  }));
});
after(async () => {
  await responder.close();
});

/** Send raw bytes on a fresh (paired, TLS) control connection; return the frames the responder sent back and whether it closed. */
async function exchange(...writes: Buffer[]): Promise<{ frames: Record<string, unknown>[]; closed: boolean }> {
  const s = await tlsConnect(port, security);
  const done = readUntilClose(s, 5000);
  for (const w of writes) s.write(w);
  const { data, closed } = await done;
  let frames: Record<string, unknown>[] = [];
  try {
    frames = new FrameParser().push(data) as Record<string, unknown>[];
  } catch {
    frames = [];
  }
  return { frames, closed };
}

function lastError(frames: Record<string, unknown>[]): { code: string; message: string } {
  const e = frames.find((f) => f.type === 'error');
  assert.ok(e, `an error frame among ${JSON.stringify(frames)}`);
  return e as never;
}

/** The responder still serves a real run after whatever a test threw at it. */
async function stillServes(): Promise<void> {
  const r = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, bytes: 1_000_000, seconds: null } });
  const result = await within(r.result, 20_000, 'follow-up run');
  assert.equal(result.partial, false, `follow-up run: ${result.partialReason}`);
  assert.equal(result.total.bytes, 1_000_000);
}

describe('responder under bad input', { timeout: 120_000 }, () => {
  it('garbage bytes: error frame, close, keeps serving', async () => {
    const { frames, closed } = await exchange(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    assert.ok(closed);
    assert.match(lastError(frames).code, /LH_ERR_(FRAME_TOO_LARGE|BAD_FRAME)/);
    await stillServes();
  });

  it('plain TCP (no TLS) gets LH_ERR_TLS_REQUIRED and a close', async () => {
    const s = await rawConnect(port);
    const done = readUntilClose(s, 5000);
    s.write(encodeFrame(hello));
    const { data, closed } = await done;
    assert.ok(closed);
    assert.equal(lastError(new FrameParser().push(data) as Record<string, unknown>[]).code, 'LH_ERR_TLS_REQUIRED');
  });

  it('a length prefix of 0xFFFFFFFF: rejected at once, nothing allocated for it', async () => {
    const { frames, closed } = await exchange(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]));
    assert.ok(closed);
    assert.equal(lastError(frames).code, 'LH_ERR_FRAME_TOO_LARGE');
  });

  it('a frame over the cap', async () => {
    const big = Buffer.alloc(4);
    big.writeUInt32BE(300 * 1024, 0);
    const { frames } = await exchange(big, Buffer.alloc(1024, 0x41));
    assert.equal(lastError(frames).code, 'LH_ERR_FRAME_TOO_LARGE');
  });

  it('wrong JSON types in params name the field', async () => {
    for (const [field, value] of [
      ['streams', 'x'],
      ['seconds', []],
      ['direction', 'sideways'],
      ['streams', 0],
      ['bufferBytes', -1],
    ] as const) {
      const params = { ...goodParams, [field]: value };
      const { frames, closed } = await exchange(encodeFrame(hello), encodeFrame({ type: 'params', cookie: 'a'.repeat(32), params }));
      assert.ok(closed);
      const e = lastError(frames);
      assert.equal(e.code, 'LH_ERR_BAD_MESSAGE', `${field}=${JSON.stringify(value)}`);
      assert.match(e.message, new RegExp(`params\\.${field}`));
    }
    await stillServes();
  });

  it('a message in the wrong state', async () => {
    const { frames } = await exchange(encodeFrame({ type: 'start' }));
    const e = lastError(frames);
    assert.equal(e.code, 'LH_ERR_UNEXPECTED_MESSAGE');
    assert.match(e.message, /"start".*"hello"/);
  });

  it('an unknown message type', async () => {
    const { frames } = await exchange(encodeFrame({ type: 'reboot' }));
    assert.equal(lastError(frames).code, 'LH_ERR_BAD_MESSAGE');
  });

  it('a protocol version it does not speak', async () => {
    const { frames } = await exchange(encodeFrame({ ...hello, protocol: 99 }));
    assert.equal(lastError(frames).code, 'LH_ERR_PROTOCOL_VERSION');
  });

  it('a client that connects and sends nothing is dropped; others are served meanwhile', async () => {
    const silent = await rawConnect(port);
    const silentDone = readUntilClose(silent, 5000);
    await stillServes();
    const { closed } = await silentDone;
    assert.ok(closed, 'the silent client was disconnected');
  });

  it('half a frame, then silence (the CVE-2023-7250 pattern): timed out', async () => {
    const frame = encodeFrame(hello);
    const t0 = Date.now();
    const { frames, closed } = await exchange(frame.subarray(0, 10));
    assert.ok(closed);
    assert.ok(Date.now() - t0 < 4000, 'dropped within the timeout');
    if (frames.length) assert.equal(lastError(frames).code, 'LH_ERR_TIMEOUT');
  });

  it('a hello and then silence: timed out in state params', async () => {
    const { frames, closed } = await exchange(encodeFrame(hello));
    assert.ok(closed);
    assert.equal(frames[0]?.type, 'hello');
    const e = lastError(frames);
    assert.equal(e.code, 'LH_ERR_TIMEOUT');
    assert.match(e.message, /params/);
  });

  it('a data connection with a wrong or missing cookie is closed at once', async () => {
    const wrong = await rawConnect(port);
    const wrongDone = readUntilClose(wrong, 3000);
    wrong.write(encodeDataHeader('b'.repeat(32), 0));
    assert.equal((await wrongDone).closed, true);
    const bare = await rawConnect(port);
    const bareDone = readUntilClose(bare, 3000);
    bare.write(Buffer.from('LHD1'));
    bare.write(Buffer.alloc(20));
    assert.equal((await bareDone).closed, true);
  });

  it('a second controller while a run is active gets LH_ERR_BUSY; the first run completes', async () => {
    const first = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, seconds: 2 } });
    await new Promise<void>((resolve) => first.once('phase', (p) => p === 'running' && resolve()).on('phase', (p) => p === 'running' && resolve()));
    const second = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, seconds: 1 } });
    const secondResult = await within(second.result, 10_000, 'busy answer');
    assert.equal(secondResult.partial, true);
    assert.equal(secondResult.errors[0]?.code, 'LH_ERR_BUSY');
    const firstResult = await within(first.result, 20_000, 'first run');
    assert.equal(firstResult.partial, false, firstResult.partialReason ?? '');
  });

  it('a refused port gives LH_ERR_REFUSED with advice', async () => {
    const { responder: r2, port: p2, security: s2 } = await startResponder();
    await r2.close();
    const res = await within(startRun({ host: '127.0.0.1', port: p2, security: s2, params: goodParams }).result, 10_000, 'refused');
    assert.equal(res.partial, true);
    assert.equal(res.errors[0]?.code, 'LH_ERR_REFUSED');
    assert.match(res.errors[0]!.message, /longhaul listen/);
  });
});
