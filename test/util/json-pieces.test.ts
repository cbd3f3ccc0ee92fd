import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batched, jsonChunks } from '../../electron/util/json-chunks.js';
import { JsonPieces, JsonSyntaxError, MAX_JSON_DEPTH, type JsonPiecesOptions } from '../../electron/util/json-pieces.js';

const sample = {
  schema: 'x/1',
  text: 'quote " backslash \\ both \\" unicode é ✓ 🚀 end\\',
  n: [0, -1.5e-7, 12345678901234, true, false, null],
  nested: { a: { b: { c: [[1, 2], { d: 'e' }, []], e: {} } } },
  rows: Array.from({ length: 30 }, (_, i) => ({ id: i, bytes: i * 1000, t: i / 10, s: `r${i}"\\` })),
  empty: '',
};
const text = JSON.stringify(sample, null, 2);
const bytes = Buffer.from(text);

function parse(chunks: Buffer[], opts: JsonPiecesOptions = {}): unknown {
  const p = new JsonPieces(opts);
  for (const c of chunks) p.push(c);
  return p.end();
}

function syntaxErrorOf(input: string, opts: JsonPiecesOptions = {}): JsonSyntaxError | null {
  try {
    parse([Buffer.from(input)], opts);
  } catch (err) {
    assert.ok(err instanceof JsonSyntaxError, `a JsonSyntaxError for ${input}: ${String(err)}`);
    return err;
  }
  return null;
}

describe('JsonPieces', () => {
  it('reads a document split at every offset, whole or walked in small pieces', () => {
    for (const maxPieceBytes of [1, 40, 1 << 20]) {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const got = parse([bytes.subarray(0, cut), bytes.subarray(cut)], { maxPieceBytes });
        assert.deepEqual(got, sample, `split at ${cut}, pieces of ${maxPieceBytes}`);
      }
    }
  });

  it('reads a document fed one byte at a time (multi-byte characters split too)', () => {
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    assert.deepEqual(parse(chunks, { maxPieceBytes: 16 }), sample);
  });

  it('reads scalars and compact text as JSON.parse does', () => {
    for (const t of ['1', ' -2.5e3 ', '"s"', 'null', 'true', '[]', '{}', '[1,[2,[3]],{"a":[{}]}]', '{"a":1,"a":2}']) {
      for (const maxPieceBytes of [1, 1000]) assert.deepEqual(parse([Buffer.from(t)], { maxPieceBytes }), JSON.parse(t), t);
    }
  });

  it('never lets a "__proto__" key change an object\'s prototype', () => {
    const got = parse([Buffer.from('{"a":{"__proto__":{"polluted":1}}}')], { maxPieceBytes: 1 }) as { a: Record<string, unknown> };
    assert.equal(Object.getPrototypeOf(got.a), Object.prototype);
    assert.deepEqual(Object.keys(got.a), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('reads nesting up to MAX_JSON_DEPTH, walked or whole, and refuses one level more', () => {
    const at = (n: number): string => '['.repeat(n) + '{"a":"[{"}' + ']'.repeat(n);
    for (const maxPieceBytes of [1, 16, 1 << 20]) {
      assert.equal(syntaxErrorOf(at(MAX_JSON_DEPTH - 1), { maxPieceBytes }), null, `depth ${MAX_JSON_DEPTH}, pieces of ${maxPieceBytes}`);
      assert.match(syntaxErrorOf(at(MAX_JSON_DEPTH), { maxPieceBytes })?.message ?? '', /nested deeper than 64 levels/);
    }
  });

  it('refuses what JSON.parse refuses, walked or whole', () => {
    const bad = [
      '',
      '{',
      '{"a":1',
      '{"a" 1}',
      '{"a":1,}',
      '[1,]',
      '[1 2]',
      '{a:1}',
      '[1}',
      '{"a":1]',
      'tru',
      '[01]',
      '"open',
      '{} x',
      '[1]]',
      '{"a":,1}',
      ',',
      '[,1]',
    ];
    for (const t of bad) {
      assert.throws(() => JSON.parse(t), SyntaxError, `JSON.parse refuses ${t}`);
      for (const maxPieceBytes of [1, 1000]) assert.ok(syntaxErrorOf(t, { maxPieceBytes }), `refused: ${t} (pieces of ${maxPieceBytes})`);
    }
  });

  it('skips top-level members without keeping them, and stops when told', () => {
    const seen: string[] = [];
    const head = parse([bytes], {
      maxPieceBytes: 64,
      onTopKey: (key) => {
        seen.push(key);
        return key === 'rows' ? 'stop' : key === 'nested' ? 'skip' : 'read';
      },
    });
    assert.deepEqual(head, { schema: sample.schema, text: sample.text, n: sample.n });
    assert.deepEqual(seen, ['schema', 'text', 'n', 'nested', 'rows']);
  });

  it('holds no more than about one piece of a skipped member', () => {
    const big = Buffer.from(JSON.stringify({ head: 1, skipped: Array.from({ length: 20000 }, (_, i) => ({ i, s: 'x'.repeat(20) })), tail: 2 }));
    const p = new JsonPieces({ maxPieceBytes: 256, onTopKey: (k) => (k === 'skipped' ? 'skip' : 'read') });
    let most = 0;
    for (let at = 0; at < big.length; at += 4096) {
      p.push(big.subarray(at, at + 4096));
      most = Math.max(most, (p as unknown as { buf: Buffer }).buf.length);
    }
    assert.deepEqual(p.end(), { head: 1, tail: 2 });
    assert.ok(most <= 4096 + 256, `held ${most} bytes at most`);
  });
});

describe('jsonChunks', () => {
  it('joins into exactly JSON.stringify(value, null, 2)', () => {
    const withOmitted = {
      ...sample,
      u: undefined,
      f: () => 1,
      arr: [undefined, () => 1, 1],
      d: new Date(0),
      deep: Array.from({ length: 3000 }, (_, i) => ({ i, v: [i, { w: i }] })),
    };
    assert.equal([...jsonChunks(withOmitted)].join(''), JSON.stringify(withOmitted, null, 2));
    assert.equal([...batched(jsonChunks(withOmitted), 1000)].join(''), JSON.stringify(withOmitted, null, 2));
    for (const v of [1, 'a', null, [], {}, [[]], { a: [] }]) assert.equal([...jsonChunks(v)].join(''), JSON.stringify(v, null, 2));
  });

  it('cuts a big document into small chunks', () => {
    const big = { rows: Array.from({ length: 5000 }, (_, i) => ({ id: i, values: Array.from({ length: 10 }, (__, j) => j) })) };
    const sizes = [...jsonChunks(big)].map((c) => c.length);
    assert.ok(sizes.length > 100 && Math.max(...sizes) < 64 * 1024, `${sizes.length} chunks, largest ${Math.max(...sizes)}`);
  });
});
