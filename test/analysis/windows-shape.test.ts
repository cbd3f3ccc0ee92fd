/**
 * Windows-shaped readings (SIO_TCP_INFO, RFC 4898 semantics as the native mapping records them: busy =
 * Rwin + Cwnd time, Snd time as `senderLimitedUs`, retransmits counted only as bytes): the diagnosis
 * over them. Synthetic, in the shape `native/src/tcp_info_win.cc` produces.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnoseResult } from '../../electron/analysis/diagnosis.js';
import type { LonghaulResult, StreamResult, TcpSample } from '../../electron/contract/result.js';
import { tcpSample } from '../helpers/result-fixtures.js';

function result(tcp: TcpSample[], bitsPerSecond: number): LonghaulResult {
  const stream: StreamResult = {
    id: 0,
    sender: 'controller',
    bytes: 0,
    seconds: 10,
    completions: 0,
    bitsPerSecond,
    send: { side: 'controller', bytes: (bitsPerSecond / 8) * 10, completions: 0, firstT: 30, lastT: 40, seconds: 10, error: null, tcp },
    receive: null,
  };
  return { streams: [stream], params: {}, directions: { controllerToResponder: { bitsPerSecond, seconds: 10 } } } as unknown as LonghaulResult;
}

describe('Windows-shaped TCP_INFO readings', () => {
  it('Snd-dominated after 30 s idle before the start: application-limited from the Snd time inside the transfer, not the idle before', () => {
    // 30 s of Snd time before the data (idle connection), then 10 s of which 6 s Snd (nothing to send).
    const tcp = [30, 35, 40].map((t, k) => ({
      ...tcpSample(k, { rttUs: 20_000, minRttUs: 19_000, sndWndBytes: 4_000_000, sndCwndBytes: 2_000_000, busyUs: k * 2e6, rwndLimitedUs: 0 }),
      t,
      senderLimitedUs: 30e6 + k * 3e6,
      cwndLimitedUs: k * 2e6,
    }));
    const [d] = diagnoseResult(result(tcp, 40e6));
    assert.equal(d?.verdict, 'application-limited', d?.sentence);
    assert.match(d!.sentence, /the OS counted it sender-limited \(nothing to send\) 60 % of the stream's active time/);
  });

  it('retransmits estimated from bytes are said to be estimated; none reported stays unknown', () => {
    const base = (k: number): TcpSample =>
      tcpSample(k + 1, { rttUs: 45_000, minRttUs: 40_000, sndWndBytes: 4_000_000, sndCwndBytes: 14_480, busyUs: (k + 1) * 1e6, rwndLimitedUs: 0 });
    const estimated = [0, 1, 2].map((k) => ({ ...base(k), totalRetransSegments: 10 * (k + 1), retransSource: 'estimated' as const }));
    const r = result(estimated, 4e6);
    r.streams[0]!.send!.socket = { sndMssBytes: 1448, unavailable: [] } as unknown as NonNullable<StreamResult['send']>['socket'];
    const [d] = diagnoseResult(r);
    assert.match(d!.sentence, /estimated from bytes/);
    const [u] = diagnoseResult(result([0, 1, 2].map(base), 4e6));
    assert.match(u!.sentence, /retransmissions unknown/);
  });
});
