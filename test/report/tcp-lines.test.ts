/**
 * The CLI's TCP lines: a retransmit count Windows only estimates (bytes ÷ MSS) says so, an unknown
 * one says unknown (never 0), and the sender's congestion control is named where the OS gave it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SocketReport, TcpSample } from '../../electron/contract/result.js';
import { formatTcpSummary } from '../../electron/report/tcp-lines.js';
import { makeResult, tcpSample } from '../helpers/result-fixtures.js';

function socket(over: Partial<SocketReport>): SocketReport {
  return {
    requestedBytes: null,
    appliedBeforeHandshake: false,
    sndBufBytes: null,
    rcvBufBytes: null,
    sndBufLocked: null,
    rcvBufLocked: null,
    sndMssBytes: 1460,
    rcvMssBytes: null,
    pmtuBytes: null,
    sndWscale: 8,
    rcvWscale: 8,
    wscaleNegotiated: true,
    tcpInfoSource: 'windows-sio_tcp_info_v1',
    unavailable: [],
    ...over,
  };
}

function sendLine(reading: Partial<TcpSample>, over: Partial<SocketReport> = {}): string {
  const r = makeResult({ streams: [{ bytes: 1e8, seconds: 10, completions: 100 }] });
  r.streams[0]!.send!.socket = socket(over);
  r.streams[0]!.send!.tcp = [tcpSample(1, { rttUs: 20_000, ...reading })];
  const line = formatTcpSummary(r).find((l) => l.includes(' send '));
  assert.ok(line, 'a send line');
  return line;
}

describe('TCP lines', () => {
  it('an estimated retransmit count is marked as such, with the bytes it comes from', () => {
    const line = sendLine({ totalRetransSegments: 1234, retransSource: 'estimated', bytesRetrans: 1_801_640 });
    assert.match(line, /retransmits ≈1,234 \(estimated from 1,801,640 B retransmitted\)/);
  });

  it('a counted one is a plain number, an unknown one says unknown', () => {
    assert.match(sendLine({ totalRetransSegments: 7, retransSource: 'counted' }), /retransmits 7(,|$)/);
    assert.match(sendLine({ totalRetransSegments: null }), /retransmits unknown/);
  });

  it("names the sender's congestion control where the OS reported it", () => {
    assert.match(sendLine({ totalRetransSegments: 0 }, { tcpInfoSource: 'linux-tcp_info', congestionControl: 'bbr' }), /retransmits 0, bbr$/);
    assert.doesNotMatch(sendLine({ totalRetransSegments: 0 }, { congestionControl: null }), /null/);
  });
});
