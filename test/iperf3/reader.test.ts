import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isWellFormedCookie, makeCookie } from '../../electron/protocol/iperf3/cookie.js';
import { Iperf3Reader, encodeErrorCodes, encodeJson, encodeState, type Expect, type Item } from '../../electron/protocol/iperf3/reader.js';
import { COOKIE_BYTES, IPERF3_STATE, iperfStreamId, streamIndexOf } from '../../electron/protocol/iperf3/states.js';
import { ProtocolError } from '../../electron/util/errors.js';

const cookie = makeCookie();
const params = { tcp: true, time: 10, parallel: 4 };
const results = { cpu_util_total: 1, streams: [{ id: 1, bytes: 5 }] };
/** A client's side of a test as a server reads it, with what the server expects at each step. */
const script: [Expect, Buffer][] = [
  [{ kind: 'cookie' }, cookie],
  [{ kind: 'json', maxBytes: 8192 }, encodeJson(params, 8192)],
  [{ kind: 'state' }, encodeState(IPERF3_STATE.TEST_END)],
  [{ kind: 'json', maxBytes: 8192 }, encodeJson(results, 8192)],
  [{ kind: 'state' }, encodeState(IPERF3_STATE.IPERF_DONE)],
  [{ kind: 'state' }, encodeState(IPERF3_STATE.SERVER_ERROR)],
  [{ kind: 'error-codes' }, encodeErrorCodes(13, 0)],
];
const wire = Buffer.concat(script.map(([, b]) => b));
const expected: Item[] = [
  { kind: 'cookie', cookie },
  { kind: 'json', value: params },
  { kind: 'state', state: 4 },
  { kind: 'json', value: results },
  { kind: 'state', state: 16 },
  { kind: 'state', state: -2 },
  { kind: 'error-codes', iperfErrno: 13, osErrno: 0 },
];

/** Feed `chunks` and take the script's items in order, as a control connection would. */
function readAll(chunks: Buffer[]): Item[] {
  const r = new Iperf3Reader(64 * 1024);
  const out: Item[] = [];
  let step = 0;
  for (const c of chunks) {
    r.push(c);
    for (;;) {
      const item = step < script.length ? r.take(script[step]![0]) : undefined;
      if (!item) break;
      out.push(item);
      step++;
    }
  }
  return out;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProtocolError, `a ProtocolError, got ${String(err)}`);
    return err.code;
  }
  return undefined;
}

describe('Iperf3Reader', () => {
  it('reads a whole exchange split at every offset', () => {
    for (let cut = 0; cut <= wire.length; cut++) {
      assert.deepEqual(readAll([wire.subarray(0, cut), wire.subarray(cut)]), expected, `split at ${cut}`);
    }
  });

  it('reads it byte by byte', () => {
    assert.deepEqual(readAll([...wire].map((b) => Buffer.from([b]))), expected);
  });

  it('waits on a partial cookie and on a truncated JSON document without yielding anything', () => {
    const r = new Iperf3Reader(1024);
    r.push(cookie.subarray(0, COOKIE_BYTES - 1));
    assert.equal(r.take({ kind: 'cookie' }), undefined);
    const r2 = new Iperf3Reader(1024);
    const doc = encodeJson(params, 1024);
    r2.push(doc.subarray(0, doc.length - 1));
    assert.equal(r2.take({ kind: 'json', maxBytes: 1024 }), undefined);
  });

  it('refuses a 0xFFFFFFFF length before buffering anything for it (CVE-2023-38403)', () => {
    const r = new Iperf3Reader(16 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    r.push(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7b]));
    assert.equal(
      codeOf(() => r.take({ kind: 'json', maxBytes: 8192 })),
      'LH_ERR_FRAME_TOO_LARGE',
    );
    assert.ok(process.memoryUsage().arrayBuffers - before < 1024 * 1024, 'nothing allocated from the announced size');
    assert.equal(
      codeOf(() => r.take({ kind: 'state' })),
      'LH_ERR_FRAME_TOO_LARGE',
      'stays failed',
    );
  });

  it('refuses a length of 0, a length one past the cap, and accepts one at the cap', () => {
    const zero = new Iperf3Reader(1024);
    zero.push(Buffer.from([0, 0, 0, 0]));
    assert.equal(
      codeOf(() => zero.take({ kind: 'json', maxBytes: 100 })),
      'LH_ERR_IPERF3_PROTOCOL',
    );
    const body = `{"a":"${'x'.repeat(92)}"}`;
    assert.equal(body.length, 100);
    const at = new Iperf3Reader(1024);
    at.push(encodeJson(JSON.parse(body) as object, 100));
    assert.equal(at.take({ kind: 'json', maxBytes: 100 })?.kind, 'json');
    const over = new Iperf3Reader(1024);
    over.push(encodeJson(JSON.parse(body) as object, 101));
    assert.equal(
      codeOf(() => over.take({ kind: 'json', maxBytes: 99 })),
      'LH_ERR_FRAME_TOO_LARGE',
    );
  });

  it('never reads a results document as a length: its first bytes ("{\\"cp") announce 2 GB and are refused', () => {
    const r = new Iperf3Reader(64 * 1024);
    r.push(Buffer.from(JSON.stringify({ cpu_util_total: 1 })));
    assert.equal(
      codeOf(() => r.take({ kind: 'json', maxBytes: 8192 })),
      'LH_ERR_FRAME_TOO_LARGE',
    );
    const s = new Iperf3Reader(64 * 1024);
    s.push(Buffer.from('{'));
    assert.equal(
      codeOf(() => s.take({ kind: 'state' })),
      'LH_ERR_IPERF3_PROTOCOL',
      '"{" (123) is no state iperf3 sends',
    );
  });

  it('refuses invalid UTF-8, invalid JSON and non-objects', () => {
    for (const body of [Buffer.from([0xc3, 0x28]), Buffer.from('{"a":'), Buffer.from('[1,2]'), Buffer.from('null'), Buffer.from('"x"')]) {
      const r = new Iperf3Reader(1024);
      const len = Buffer.alloc(4);
      len.writeUInt32BE(body.length);
      r.push(Buffer.concat([len, body]));
      assert.equal(
        codeOf(() => r.take({ kind: 'json', maxBytes: 100 })),
        'LH_ERR_IPERF3_PROTOCOL',
        body.toString('hex'),
      );
    }
  });

  it('caps what a peer may send ahead of what is asked', () => {
    const r = new Iperf3Reader(100);
    r.push(Buffer.alloc(100, 1));
    assert.equal(
      codeOf(() => r.push(Buffer.alloc(1, 1))),
      'LH_ERR_IPERF3_PROTOCOL',
    );
  });

  it('knows every state byte iperf3 sends and no other', () => {
    for (let b = -128; b < 128; b++) {
      const r = new Iperf3Reader(8);
      r.push(encodeState(b));
      const known = (Object.values(IPERF3_STATE) as number[]).includes(b);
      assert.equal(
        codeOf(() => r.take({ kind: 'state' })),
        known ? undefined : 'LH_ERR_IPERF3_PROTOCOL',
        `byte ${b}`,
      );
    }
  });
});

describe('iperf3 cookie and stream ids', () => {
  it("makes 37-byte cookies of iperf3's alphabet, each different", () => {
    const a = makeCookie();
    assert.equal(a.length, 37);
    assert.ok(isWellFormedCookie(a));
    assert.notDeepEqual(a, makeCookie());
    const bad = Buffer.from(a);
    bad[3] = 0x1b;
    assert.equal(isWellFormedCookie(bad), false);
    assert.equal(isWellFormedCookie(a.subarray(0, 36)), false);
  });

  it('numbers streams 1, 3, 4, 5… as iperf_add_stream does, and back', () => {
    assert.deepEqual([0, 1, 2, 3].map(iperfStreamId), [1, 3, 4, 5]);
    assert.deepEqual(
      [1, 3, 4, 5].map((id) => streamIndexOf(id, 4)),
      [0, 1, 2, 3],
    );
    assert.deepEqual(
      [0, 2, 6, -1, 1.5].map((id) => streamIndexOf(id, 4)),
      [null, null, null, null, null],
    );
  });
});
