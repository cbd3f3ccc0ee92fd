/**
 * What `npm run bench` reads from each tool's JSON: iperf3's client `-J` (samples shaped as 3.12
 * and 3.21 print them, forward and -R) and a Longhaul result, including the checks that keep an
 * untrusted Longhaul figure from passing unnoticed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { iperf3Figures, iperf3Version, longhaulFigures } from './loopback-figures.js';

/** An iperf3 client's -J output, trimmed to the fields read, as 3.12 and 3.21 print it. */
function iperf3Json(reverse: boolean, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    start: { test_start: { protocol: 'TCP', num_streams: 2, blksize: 1048576, reverse: reverse ? 1 : 0 } },
    end: {
      sum_sent: { bytes: 2267545600, bits_per_second: 18124270447.8, retransmits: 1, sender: !reverse },
      sum_received: { bytes: 2263744512, bits_per_second: 18106588270.6, sender: !reverse },
    },
    ...extra,
  });
}

function longhaulDoc(over: Partial<LonghaulResult> = {}, sender: 'controller' | 'responder' = 'controller', io: 'native' | 'node' = 'native'): LonghaulResult {
  const end = (side: 'controller' | 'responder') => ({ side, bytes: 1, completions: 1, firstT: 0, lastT: 1, seconds: 1, error: null, io });
  const other = sender === 'controller' ? 'responder' : 'controller';
  const stream = { id: 0, sender, bytes: 1, seconds: 1, completions: 1, bitsPerSecond: 8, send: end(sender), receive: end(other) };
  return {
    params: {
      streams: 2,
      bufferBytes: 131072,
      windowBytes: null,
      bytes: null,
      seconds: 1,
      direction: sender === 'controller' ? 'forward' : 'reverse',
      intervalSeconds: 1,
    },
    streams: [stream, { ...stream, id: 1 }],
    total: { bytes: 829423616, sentBytes: 829423616, seconds: 1.05, bitsPerSecond: 6340468539.2, streamSumBitsPerSecond: 6.5e9, completions: 843 },
    partial: false,
    partialReason: null,
    errors: [],
    unavailable: [],
    ...over,
  } as unknown as LonghaulResult;
}

describe('bench: iperf3 --version', () => {
  it('reads the version from both builds and nothing from other text', () => {
    assert.equal(iperf3Version('iperf 3.21 (cJSON 1.7.15)\nLinux vm 6.18 x86_64\n'), '3.21');
    assert.equal(iperf3Version('iperf 3.12 (cJSON 1.7.15)\n'), '3.12');
    assert.equal(iperf3Version('iperf 3.9.1+ (cJSON 1.7.13)'), '3.9.1+');
    assert.equal(iperf3Version('bash: iperf3: command not found'), null);
  });
});

describe("bench: an iperf3 client's -J output", () => {
  it('takes the receiver sum, the streams and the write size; the client sends without -R', () => {
    const f = iperf3Figures(iperf3Json(false));
    assert.deepEqual(f, { bitsPerSecond: 18106588270.6, bytes: 2263744512, sender: 'client', streams: 2, lengthBytes: 1048576, notes: [] });
  });

  it('-R: the server sends, as sum_sent.sender says', () => {
    assert.equal(iperf3Figures(iperf3Json(true)).sender, 'server');
  });

  it('sum_sent.sender decides over the reverse flag; the flag only stands in where an old version prints no sender', () => {
    const contradicting = JSON.parse(iperf3Json(true)) as { end: { sum_sent: { sender: boolean } } };
    contradicting.end.sum_sent.sender = true;
    assert.equal(iperf3Figures(JSON.stringify(contradicting)).sender, 'client');
    const old = JSON.parse(iperf3Json(true)) as { end: { sum_sent: { sender?: boolean } } };
    delete old.end.sum_sent.sender;
    assert.equal(iperf3Figures(JSON.stringify(old)).sender, 'server');
  });

  it("throws iperf3's own error, on text that is not JSON, and on a missing figure", () => {
    assert.throws(() => iperf3Figures(JSON.stringify({ error: 'unable to connect to server' })), /iperf3: unable to connect to server/);
    assert.throws(() => iperf3Figures('iperf3: error - unable to connect'), /printed no JSON/);
    assert.throws(() => iperf3Figures(JSON.stringify({ start: { test_start: {} } })), /no end.sum_received/);
    const noRate = JSON.parse(iperf3Json(false)) as { end: { sum_received: { bits_per_second?: number } } };
    delete noRate.end.sum_received.bits_per_second;
    assert.throws(() => iperf3Figures(JSON.stringify(noRate)), /bits_per_second is undefined/);
  });
});

describe('bench: a Longhaul result', () => {
  it('takes the total, the streams and the buffer; the controller is the client', () => {
    const f = longhaulFigures(longhaulDoc());
    assert.deepEqual(f, { bitsPerSecond: 6340468539.2, bytes: 829423616, sender: 'client', streams: 2, lengthBytes: 131072, notes: [] });
  });

  it('-R: the responder sends, so the server does', () => {
    assert.equal(longhaulFigures(longhaulDoc({}, 'responder')).sender, 'server');
  });

  it("an end on Node's loop, or one that does not say, and unavailable figures are notes", () => {
    assert.deepEqual(longhaulFigures(longhaulDoc({}, 'controller', 'node')).notes, ["4 of 4 ends not on the native loop (Node's, or not said)"]);
    const peerViewGone = longhaulDoc();
    peerViewGone.streams[0]!.receive = null;
    assert.deepEqual(longhaulFigures(peerViewGone).notes, ["1 of 4 ends not on the native loop (Node's, or not said)"]);
    const unavailable = [
      { field: 'tcp', reason: 'no TCP_INFO' },
      { field: 'tcp', reason: 'again' },
      { field: 'cpu', reason: 'x' },
    ];
    assert.deepEqual(longhaulFigures(longhaulDoc({ unavailable } as Partial<LonghaulResult>)).notes, ['unavailable: tcp, cpu']);
  });

  it('a partial or failed run, or streams sent both ways, is no figure', () => {
    assert.throws(() => longhaulFigures(longhaulDoc({ partial: true, partialReason: 'peer gone' })), /partial or failed: peer gone/);
    assert.throws(() => longhaulFigures(longhaulDoc({ errors: [{ code: 'LH_ERR_TIMEOUT', message: 'silent' }] })), /LH_ERR_TIMEOUT: silent/);
    const both = longhaulDoc();
    both.streams[1]!.sender = 'responder';
    assert.throws(() => longhaulFigures(both), /sent by controller and responder/);
  });
});
