import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientParamsDocument, readClientParams } from '../../electron/protocol/iperf3/params-document.js';
import { readResults, resultsDocument } from '../../electron/protocol/iperf3/results-document.js';
import { IPERF3_ERRNO } from '../../electron/protocol/iperf3/states.js';
import { ProtocolError } from '../../electron/util/errors.js';

const limits = { maxStreams: 128, maxSeconds: 3600, maxBytes: 1024 ** 4 };
/** What iperf3 3.12's client sends for `iperf3 -c host -P 4 -R -w 64K -l 32K` (captured with -d). */
const real = {
  tcp: true,
  omit: 0,
  time: 10,
  num: 0,
  blockcount: 0,
  parallel: 4,
  reverse: true,
  window: 65536,
  len: 32768,
  pacing_timer: 1000,
  client_version: '3.12',
};

function protocolError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProtocolError);
    return err.message;
  }
  assert.fail('no error');
}

describe('iperf3 parameters', () => {
  it("maps a real client's parameters onto a Longhaul run", () => {
    const v = readClientParams(real, limits);
    assert.equal(v.kind, 'ok');
    assert.deepEqual(v.kind === 'ok' && v.ask, {
      params: { streams: 4, bufferBytes: 32768, windowBytes: 65536, bytes: null, seconds: 10, direction: 'reverse', intervalSeconds: 1 },
      version: '3.12',
      getServerOutput: false,
      counters64: false,
    });
  });

  it('maps bytes (-n) and blocks (-k × -l) onto a byte limit, --bidir onto bidir', () => {
    const n = readClientParams({ ...real, reverse: undefined, bidirectional: true, num: 1000 }, limits);
    assert.equal(n.kind === 'ok' && n.ask.params.bytes, 1000);
    assert.equal(n.kind === 'ok' && n.ask.params.direction, 'bidir');
    const k = readClientParams({ ...real, blockcount: 3 }, limits);
    assert.equal(k.kind === 'ok' && k.ask.params.bytes, 3 * 32768);
    assert.equal(k.kind === 'ok' && k.ask.params.seconds, null);
  });

  it("takes a client's -b (bandwidth) and --fq-rate as the bitrate per stream, the lower of the two", () => {
    const b = readClientParams({ ...real, bandwidth: 5_000_000 }, limits);
    assert.equal(b.kind === 'ok' && b.ask.params.bitrateBitsPerSec, 5_000_000);
    const both = readClientParams({ ...real, bandwidth: 5_000_000, fqrate: 2_000_000 }, limits);
    assert.equal(both.kind === 'ok' && both.ask.params.bitrateBitsPerSec, 2_000_000);
    const none = readClientParams({ ...real, bandwidth: 0 }, limits);
    assert.equal(none.kind === 'ok' && none.ask.params.bitrateBitsPerSec, undefined, 'iperf3 -b 0: unlimited');
  });

  it("takes a client's -C (congestion) as the congestion control of every stream end, and sends --congestion as it", () => {
    const c = readClientParams({ ...real, congestion: 'reno' }, limits);
    assert.equal(c.kind === 'ok' && c.ask.params.congestionControl, 'reno');
    assert.equal(readClientParams({ ...real, congestion: 'x; rm' }, limits).kind, 'refuse');
    const params = { streams: 1, bufferBytes: 8192, windowBytes: null, bytes: null, seconds: 2, direction: 'forward' as const, intervalSeconds: 1 };
    assert.equal(clientParamsDocument({ ...params, congestionControl: 'bbr' }, false).congestion, 'bbr');
  });

  it('takes a client\'s -Z ("zerocopy": 1, iperf3 3.11+) for this server\'s senders, not for UDP, and sends -Z as it', () => {
    const z = readClientParams({ ...real, zerocopy: 1 }, limits);
    assert.equal(z.kind === 'ok' && z.ask.params.zeroCopy, true);
    const plain = readClientParams(real, limits);
    assert.equal(plain.kind === 'ok' && 'zeroCopy' in plain.ask.params, false);
    const zeroFlag = readClientParams({ ...real, zerocopy: 0 }, limits);
    assert.equal(zeroFlag.kind === 'ok' && 'zeroCopy' in zeroFlag.ask.params, false);
    const udp = readClientParams({ ...real, tcp: undefined, udp: true, len: 1200, bandwidth: 1e6, zerocopy: 1 }, limits);
    assert.equal(udp.kind === 'ok' && 'zeroCopy' in udp.ask.params, false, 'iperf3 ignores -Z for UDP; so does this server');
    assert.match(
      protocolError(() => readClientParams({ ...real, zerocopy: 'yes' }, limits)),
      /zerocopy/,
    );
    const params = { streams: 1, bufferBytes: 8192, windowBytes: null, bytes: null, seconds: 2, direction: 'reverse' as const, intervalSeconds: 1 };
    assert.equal(clientParamsDocument({ ...params, zeroCopy: true }, false).zerocopy, 1);
    assert.equal('zerocopy' in clientParamsDocument(params, false), false);
  });

  it("takes a client's -u as a UDP run: its datagram size, its rate (iperf3's 1 Mbit/s when absent), its 64-bit counters", () => {
    const u = readClientParams({ ...real, tcp: undefined, udp: true, len: 1200, bandwidth: 20_000_000, udp_counters_64bit: 1 }, limits);
    assert.equal(u.kind, 'ok');
    if (u.kind !== 'ok') return;
    assert.deepEqual([u.ask.params.protocol, u.ask.params.bufferBytes, u.ask.params.bitrateBitsPerSec, u.ask.counters64], ['udp', 1200, 20_000_000, true]);
    // iperf3 -u -b 0 leaves `bandwidth` out: its own datagrams as fast as they go, fine where only it sends.
    const d = readClientParams({ ...real, tcp: undefined, udp: true, reverse: false, len: undefined, bandwidth: undefined }, limits);
    assert.deepEqual(d.kind === 'ok' && [d.ask.params.bufferBytes, d.ask.params.bitrateBitsPerSec, d.ask.counters64], [1460, undefined, false]);
    const params = { streams: 1, bufferBytes: 1460, windowBytes: null, bytes: null, seconds: 2, direction: 'forward' as const, intervalSeconds: 1 };
    const doc = clientParamsDocument({ ...params, protocol: 'udp' }, false);
    assert.deepEqual([doc.udp, doc.tcp, doc.len, doc.bandwidth], [true, undefined, 1460, 1_000_000], 'sent as iperf3 -u -l 1460 (its default rate)');
  });

  it('refuses SCTP, authentication, bursts, an unpaced or out-of-range UDP and out-of-range values with iperf3 error numbers', () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ ...real, tcp: undefined, udp: true, reverse: true, bandwidth: 0 }, IPERF3_ERRNO.IEUNIMP],
      [{ ...real, tcp: undefined, udp: true, bandwidth: 1e6, len: 16 }, IPERF3_ERRNO.IEUDPBLOCKSIZE],
      [{ ...real, tcp: undefined, udp: true, bandwidth: 1e6, len: 65_508 }, IPERF3_ERRNO.IEUDPBLOCKSIZE],
      [{ ...real, tcp: undefined, udp: true, bandwidth: 1e6, MSS: 1400 }, IPERF3_ERRNO.IEUNIMP],
      [{ ...real, tcp: undefined, sctp: true }, IPERF3_ERRNO.IEUNIMP],
      [{ ...real, authtoken: 'abc' }, IPERF3_ERRNO.IEAUTHTEST],
      [{ ...real, bandwidth: 1000000, burst: 10 }, IPERF3_ERRNO.IEUNIMP],
      [{ ...real, bandwidth: 500 }, IPERF3_ERRNO.IEUNIMP],
      [{ ...real, parallel: 129 }, IPERF3_ERRNO.IENUMSTREAMS],
      [{ ...real, parallel: 0 }, IPERF3_ERRNO.IENUMSTREAMS],
      [{ ...real, len: 17 * 1024 * 1024 }, IPERF3_ERRNO.IEBLOCKSIZE],
      [{ ...real, time: 0 }, IPERF3_ERRNO.IEDURATION],
      [{ ...real, time: 3601 }, IPERF3_ERRNO.IEDURATION],
      [{ ...real, bidirectional: true }, IPERF3_ERRNO.IEMESSAGE],
    ];
    for (const [doc, errno] of cases) {
      const v = readClientParams(doc, limits);
      assert.equal(v.kind, 'refuse', JSON.stringify(doc));
      assert.equal(v.kind === 'refuse' && v.iperfErrno, errno, JSON.stringify(doc));
    }
  });

  it('refuses wrong JSON types (iperf3 read "8" as 0 and a numeric title as a NULL pointer)', () => {
    for (const bad of [{ parallel: '8' }, { time: -1 }, { len: 1.5 }, { reverse: 'yes' }, { window: null }, { authtoken: 5 }, { client_version: {} }]) {
      assert.match(
        protocolError(() => readClientParams({ ...real, ...bad }, limits)),
        /iperf3 parameters: /,
        JSON.stringify(bad),
      );
    }
  });

  it('makes peer text printable: a version with escape sequences reaches no terminal raw', () => {
    const v = readClientParams({ ...real, client_version: '3.12\u001b[2J' }, limits);
    assert.equal(v.kind === 'ok' && v.ask.version, '3.12\\u{1b}[2J');
  });

  it("writes Longhaul's run in iperf3's keys, rounding time up", () => {
    const doc = clientParamsDocument(
      { streams: 2, bufferBytes: 8192, windowBytes: 8760, bytes: null, seconds: 2.5, direction: 'bidir', intervalSeconds: 1 },
      true,
    );
    assert.deepEqual(doc, {
      tcp: true,
      omit: 0,
      time: 3,
      num: 0,
      blockcount: 0,
      parallel: 2,
      bidirectional: true,
      window: 8760,
      len: 8192,
      pacing_timer: 1000,
      get_server_output: 1,
    });
    const back = readClientParams(doc, limits);
    assert.equal(back.kind === 'ok' && back.ask.params.direction, 'bidir');
  });

  it("sends --bitrate as iperf3's own bandwidth key (bits/s per stream), and reads it back", () => {
    const params = { streams: 2, bufferBytes: 8192, windowBytes: null, bytes: null, seconds: 2, direction: 'reverse' as const, intervalSeconds: 1 };
    const doc = clientParamsDocument({ ...params, bitrateBitsPerSec: 5e6 }, false);
    assert.equal(doc.bandwidth, 5_000_000);
    assert.equal('bandwidth' in clientParamsDocument(params, false), false, 'unpaced: no key, iperf3 sends as fast as TCP allows');
    const back = readClientParams(doc, limits);
    assert.equal(back.kind === 'ok' && back.ask.params.bitrateBitsPerSec, 5e6);
  });
});

describe('iperf3 results', () => {
  /** iperf3 3.12's client results in reverse mode, as captured with -d: -1 written as 2^64 − 1 (which a double rounds to 2^64). */
  const captured = {
    cpu_util_total: 54.2,
    cpu_util_user: 1.5,
    cpu_util_system: 52.6,
    sender_has_retransmits: 2 ** 64,
    congestion_used: 'bbr',
    streams: [{ id: 1, bytes: 2995584971, retransmits: 2 ** 64, jitter: 0, errors: 0, packets: 0, start_time: 0, end_time: 2.000523 }],
  };

  it('reads iperf3 3.12\'s results, its unsigned -1 as "not counted"', () => {
    const r = readResults(captured, 1);
    assert.deepEqual(r.streams, [
      { index: 0, bytes: 2995584971, retransmits: null, startSeconds: 0, endSeconds: 2.000523, udp: { jitterSeconds: 0, errors: 0, packets: 0 } },
    ]);
    assert.equal(r.congestion, 'bbr');
  });

  it('refuses unknown, repeated and wrongly typed stream entries', () => {
    assert.match(
      protocolError(() => readResults({ ...captured, streams: [{ ...captured.streams[0], id: 7 }] }, 1)),
      /stream id 7/,
    );
    assert.match(
      protocolError(() => readResults({ ...captured, streams: [captured.streams[0], captured.streams[0]] }, 4)),
      /twice/,
    );
    assert.match(
      protocolError(() => readResults({ ...captured, streams: [{ ...captured.streams[0], bytes: '5' }] }, 1)),
      /streams\.0\.bytes/,
    );
    assert.match(
      protocolError(() => readResults({ ...captured, streams: 'x' }, 1)),
      /streams/,
    );
    assert.match(
      protocolError(() => readResults({ streams: [] }, 1)),
      /cpu_util_total/,
    );
  });

  it('writes results an iperf3 client reads back, and reads the server version from its JSON output', () => {
    const doc = resultsDocument([{ iperfId: 1, bytes: 10, retransmits: 2, startSeconds: 0, endSeconds: 1 }], true, 'text');
    const back = readResults({ ...doc, server_output_json: { start: { version: 'iperf 3.12' } } }, 1);
    assert.deepEqual(back.streams[0], {
      index: 0,
      bytes: 10,
      retransmits: 2,
      startSeconds: 0,
      endSeconds: 1,
      udp: { jitterSeconds: 0, errors: 0, packets: 0 },
    });
    // UDP: a receiving end's jitter (s), lost and highest number go out as iperf3's jitter, errors and packets, and come back.
    const udp = resultsDocument(
      [{ iperfId: 1, bytes: 12000, retransmits: null, startSeconds: 0, endSeconds: 1, udp: { jitterSeconds: 0.0012, errors: 3, packets: 13 } }],
      false,
      null,
    );
    assert.deepEqual(readResults(udp, 1).streams[0]?.udp, { jitterSeconds: 0.0012, errors: 3, packets: 13 });
    assert.equal(back.serverVersion, '3.12');
    assert.equal((doc as { sender_has_retransmits: number }).sender_has_retransmits, 1);
    assert.equal((resultsDocument([], false, null) as { sender_has_retransmits: number }).sender_has_retransmits, -1);
  });

  it('labels a Windows end\'s estimated Retr (bytes ÷ MSS) in the output text and the stream, and sends "not counted" for an unknown one', () => {
    type Doc = { server_output_text?: string; sender_has_retransmits: number; streams: { retransmits: number; retransmits_estimated?: boolean }[] };
    const est = { iperfId: 1, bytes: 10, retransmits: 12, retransEstimated: true, startSeconds: 0, endSeconds: 1 };
    const doc = resultsDocument([est], true, 'Longhaul served this test.\n') as Doc;
    assert.equal(doc.streams[0]?.retransmits, 12);
    assert.equal(doc.streams[0]?.retransmits_estimated, true);
    assert.match(doc.server_output_text ?? '', /^Longhaul served this test\.\nRetr here is estimated: Windows counts retransmitted bytes, not segments/);
    // iperf3's reader takes it as any results document: the extra field is ignored.
    assert.equal(readResults(doc, 1).streams[0]?.retransmits, 12);
    const counted = resultsDocument([{ ...est, retransEstimated: false }], true, 'Longhaul served this test.\n') as Doc;
    assert.equal(counted.streams[0]?.retransmits_estimated, undefined);
    assert.equal(counted.server_output_text, 'Longhaul served this test.\n');
    const unknown = resultsDocument([{ ...est, retransmits: null }], true, 'x\n') as Doc;
    assert.equal(unknown.streams[0]?.retransmits, -1, 'not counted, never 0');
    assert.equal(unknown.streams[0]?.retransmits_estimated, undefined);
    assert.equal(unknown.sender_has_retransmits, 0);
    assert.equal(unknown.server_output_text, 'x\n');
  });
});
