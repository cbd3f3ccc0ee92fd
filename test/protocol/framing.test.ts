import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFrame, FrameParser } from '../../electron/protocol/framing.js';
import { ProtocolError } from '../../electron/util/errors.js';

const messages = [
  { type: 'hello', protocol: 1, software: 'longhaul/test', hostname: 'a', capabilities: ['x'] },
  { type: 'start' },
  { type: 'sample', index: 1, t: 1.0, final: false, streams: [[0, 12345, 3]] },
];
const wire = Buffer.concat(messages.map((m) => encodeFrame(m)));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProtocolError, 'a ProtocolError');
    return err.code;
  }
  return undefined;
}

describe('FrameParser', () => {
  it('decodes frames split at every offset', () => {
    for (let cut = 0; cut <= wire.length; cut++) {
      const p = new FrameParser();
      const out = [...p.push(wire.subarray(0, cut)), ...p.push(wire.subarray(cut))];
      assert.deepEqual(out, messages, `split at ${cut}`);
      assert.equal(p.pendingBytes, 0);
    }
  });

  it('decodes byte by byte', () => {
    const p = new FrameParser();
    const out: unknown[] = [];
    for (const b of wire) out.push(...p.push(Buffer.from([b])));
    assert.deepEqual(out, messages);
  });

  it('waits on a truncated frame without emitting anything', () => {
    const p = new FrameParser();
    assert.deepEqual(p.push(wire.subarray(0, wire.length - 1)).length, messages.length - 1);
    assert.ok(p.pendingBytes > 0);
  });

  it('rejects a length prefix of 0xFFFFFFFF before buffering anything for it', () => {
    const p = new FrameParser();
    const before = process.memoryUsage().arrayBuffers;
    assert.equal(
      codeOf(() => p.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7b]))),
      'LH_ERR_FRAME_TOO_LARGE',
    );
    assert.ok(process.memoryUsage().arrayBuffers - before < 1024 * 1024, 'no allocation of the announced size');
  });

  it('rejects a frame one byte over the cap, accepts one at the cap', () => {
    const cap = 64;
    const atCap = Buffer.alloc(4 + cap, 0x20);
    atCap.writeUInt32BE(cap, 0);
    atCap.write('{}', 4);
    assert.deepEqual(new FrameParser(cap).push(atCap), [{}]);
    const over = Buffer.alloc(4);
    over.writeUInt32BE(cap + 1, 0);
    assert.equal(
      codeOf(() => new FrameParser(cap).push(over)),
      'LH_ERR_FRAME_TOO_LARGE',
    );
  });

  it('rejects empty frames, garbage, invalid UTF-8 and non-objects', () => {
    const frame = (body: Buffer): Buffer => {
      const h = Buffer.alloc(4);
      h.writeUInt32BE(body.length, 0);
      return Buffer.concat([h, body]);
    };
    assert.equal(
      codeOf(() => new FrameParser().push(Buffer.from([0, 0, 0, 0]))),
      'LH_ERR_BAD_FRAME',
    );
    assert.equal(
      codeOf(() => new FrameParser().push(frame(Buffer.from('not json')))),
      'LH_ERR_BAD_FRAME',
    );
    assert.equal(
      codeOf(() => new FrameParser().push(frame(Buffer.from([0xc3, 0x28])))),
      'LH_ERR_BAD_FRAME',
    );
    assert.equal(
      codeOf(() => new FrameParser().push(frame(Buffer.from('[1,2]')))),
      'LH_ERR_BAD_FRAME',
    );
    assert.equal(
      codeOf(() => new FrameParser().push(frame(Buffer.from('42')))),
      'LH_ERR_BAD_FRAME',
    );
  });

  it('stays failed after an error', () => {
    const p = new FrameParser();
    assert.throws(() => p.push(Buffer.from([0, 0, 0, 0])));
    assert.throws(() => p.push(encodeFrame({ type: 'start' })));
  });

  it('survives random garbage without throwing anything but ProtocolError', () => {
    let seed = 42;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 500; i++) {
      const buf = Buffer.alloc(1 + Math.floor(rand() * 64));
      for (let j = 0; j < buf.length; j++) buf[j] = Math.floor(rand() * 256);
      const p = new FrameParser(1024);
      try {
        p.push(buf);
      } catch (err) {
        assert.ok(err instanceof ProtocolError);
      }
    }
  });
});
