/** The run's window line from stream-end socket reports (synthetic reports). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SocketReport } from '../../electron/contract/result.js';
import { summarizeUdpWindow, summarizeWindow } from '../../electron/analysis/window-summary.js';

function report(over: Partial<SocketReport>): SocketReport {
  return {
    requestedBytes: 8760,
    appliedBeforeHandshake: true,
    sndBufBytes: 17_520,
    rcvBufBytes: 17_520,
    sndBufLocked: true,
    rcvBufLocked: true,
    sndMssBytes: 1448,
    rcvMssBytes: 1448,
    pmtuBytes: 1500,
    sndWscale: 0,
    rcvWscale: 0,
    wscaleNegotiated: true,
    tcpInfoSource: 'linux-tcp_info',
    unavailable: [],
    ...over,
  };
}

describe('summarizeWindow', () => {
  it('no request: "OS default (autotuning)", whatever the sockets say', () => {
    const w = summarizeWindow(null, [report({ requestedBytes: null, appliedBeforeHandshake: false, rcvBufBytes: 131_072 })]);
    assert.equal(w.note, 'OS default (autotuning)');
    assert.equal(w.applied, false);
    assert.deepEqual(w.effectiveRcvBufBytes, { min: 131_072, max: 131_072 });
  });

  it('applied everywhere: the doubled effective size is shown next to the request', () => {
    const w = summarizeWindow(8760, [report({}), report({})]);
    assert.equal(w.applied, true);
    assert.match(w.note, /applied before the handshake on all 2 stream ends; effective SO_RCVBUF 17,520 B \(Linux doubles/);
  });

  it('capped by rmem_max: says the OS capped it instead of claiming a doubling', () => {
    const w = summarizeWindow(8 * 1024 * 1024, [report({ requestedBytes: 8 * 1024 * 1024, rcvBufBytes: 8 * 1024 * 1024 })]);
    assert.match(w.note, /effective SO_RCVBUF 8,388,608 B \(less than twice the request: Linux capped it at net.core.rmem_max/);
  });

  it('another OS that reads back the request as is: no remark', () => {
    const w = summarizeWindow(65_536, [report({ requestedBytes: 65_536, rcvBufBytes: 65_536, tcpInfoSource: 'windows-sio_tcp_info' })]);
    assert.equal(w.note, 'applied before the handshake on all 1 stream ends; effective SO_RCVBUF 65,536 B');
  });

  it('one end without the addon: not applied, with the reason, and "OS default (autotuning)"', () => {
    const reason = 'the native socket addon is disabled (LONGHAUL_NO_NATIVE=1)';
    const w = summarizeWindow(8760, [
      report({}),
      report({ appliedBeforeHandshake: false, rcvBufBytes: null, sndBufBytes: null, unavailable: [{ field: 'window', reason }] }),
    ]);
    assert.equal(w.applied, false);
    assert.equal(w.note, `not applied on 1 of 2 stream ends, which use the OS default (autotuning): ${reason}`);
    assert.deepEqual(w.effectiveRcvBufBytes, { min: 17_520, max: 17_520 });
  });

  it('no reports yet: requested, not known to be applied', () => {
    const w = summarizeWindow(8760, []);
    assert.equal(w.applied, false);
    assert.match(w.note, /no stream end reported/);
  });

  it("advertised windows: the senders' snd_wnd directly, and named as the local hop's through the delay proxy", () => {
    const r = [report({ requestedBytes: 65_536, appliedBeforeHandshake: true, rcvBufBytes: 131_072 })];
    assert.match(summarizeWindow(65_536, r, [60_000, 65_536]).note, /advertised \(the senders' snd_wnd\) 60,000–65,536 B$/);
    const proxied = summarizeWindow(65_536, r, [0, 8_192], true).note;
    assert.match(proxied, /advertised \(on the local hop to the delay proxy, not the emulated window\) 0–8,192 B$/);
  });

  it("UDP: -w is the receiving sockets' SO_RCVBUF, set before the first datagram; unknown when an end did not say", () => {
    const one = summarizeUdpWindow(65_536, [131_072], true);
    assert.equal(one.applied, true);
    assert.equal(
      one.note,
      'set on the receiving socket before the first datagram; effective SO_RCVBUF 131,072 B (Linux doubles the request for its own bookkeeping)',
    );
    const capped = summarizeUdpWindow(4_194_304, [425_984, 425_984], true);
    assert.match(capped.note, /^set on all 2 receiving sockets .* 425,984 B \(less than twice the request: Linux capped it at net.core.rmem_max/);
    const windows = summarizeUdpWindow(65_536, [65_536], false);
    assert.equal(windows.note, 'set on the receiving socket before the first datagram; effective SO_RCVBUF 65,536 B');
    const silent = summarizeUdpWindow(65_536, [null], true);
    assert.equal(silent.applied, false);
    assert.equal(silent.note, 'not known to be applied: no receiving socket reported its buffer');
    assert.equal(summarizeUdpWindow(null, [212_992], true).note, 'OS default; effective SO_RCVBUF 212,992 B');
    assert.doesNotMatch(one.note + silent.note, /handshake|stream end/, 'no TCP words for UDP');
  });
});
