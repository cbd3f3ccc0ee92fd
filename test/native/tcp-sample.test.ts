/**
 * electron/native/tcp-sample.ts over readings shaped as the addon returns them: Windows SIO_TCP_INFO
 * v1 (RFC 4898 send-limit times) and v0 (no timers), and Linux tcp_info with and without the fields
 * newer kernels add. No sockets: the mapping is what is tested, on every OS.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NativeTcpInfo } from '../../electron/native/native-api.js';
import { missingSampleFields, retransmits, sampleFrom, sendLimits, tcpInfoFamily } from '../../electron/native/tcp-sample.js';

/** The addon's field names (native/src/addon.cc, LH_TCP_FIELDS), less `source` and `rawBytes`. */
const FIELDS = `state rttUs rttVarUs minRttUs sndCwndSegments sndCwndBytes sndSsthresh sndMssBytes rcvMssBytes advMssBytes pmtuBytes
  totalRetransSegments retransmitBytes lostSegments unackedSegments bytesInFlight sndWndBytes rcvWndBytes rcvSpaceBytes
  rcvSsthreshBytes sndWscale rcvWscale wscaleNegotiated deliveryRateBytesPerSec deliveryRateAppLimited busyUs rwndLimitedUs
  sndbufLimitedUs cwndLimitedUs bytesSent bytesAcked bytesReceived notSentBytes senderLimitedUs dsackDups reordSeen
  pacingRateBytesPerSec dataSegsIn`.split(/\s+/);

/** Every field null, as for an OS that reports nothing. */
function blank(source: string): NativeTcpInfo {
  return { source, rawBytes: 0, ...Object.fromEntries(FIELDS.map((k) => [k, null])) } as NativeTcpInfo;
}

/** SIO_TCP_INFO v1 send-limit times in ms, as Windows counts them since the handshake. */
interface SndLim {
  rwinMs: number;
  cwndMs: number;
  sndMs: number;
}

/**
 * What native/src/tcp_info_win.cc fills: FillCommon's members, and on v1 the three SndLimTime* in µs.
 * `bytesRetrans` is BytesRetrans; MSS 1,460 unless given.
 */
function windowsReading(lim: SndLim | null, o: { bytesRetrans?: number; mss?: number | null } = {}): NativeTcpInfo {
  const r = blank(lim ? 'windows-sio_tcp_info_v1' : 'windows-sio_tcp_info_v0');
  Object.assign(r, {
    rawBytes: lim ? 136 : 88,
    state: 4,
    sndMssBytes: o.mss === undefined ? 1460 : o.mss,
    rttUs: 40_000,
    minRttUs: 20_000,
    bytesInFlight: 64_000,
    sndCwndBytes: 120_000,
    sndWndBytes: 65_536,
    rcvWndBytes: 65_536,
    bytesSent: 50e6,
    bytesReceived: 0,
    retransmitBytes: o.bytesRetrans ?? 0,
  });
  if (lim) Object.assign(r, { rwndLimitedUs: lim.rwinMs * 1000, cwndLimitedUs: lim.cwndMs * 1000, senderLimitedUs: lim.sndMs * 1000 });
  return r;
}

describe('Windows SIO_TCP_INFO: RFC 4898 send-limit states', () => {
  it('busy is receive-window + congestion-limited time; sender-limited time is not busy', () => {
    const s = sendLimits(windowsReading({ rwinMs: 3000, cwndMs: 1000, sndMs: 6000 }));
    assert.deepEqual(s, { busyUs: 4e6, rwndLimitedUs: 3e6, cwndLimitedUs: 1e6, senderLimitedUs: 6e6, sndbufLimitedUs: null });
  });

  it('idle before the start: a socket opened 5 s before the transfer reads as sender-limited, not busy', () => {
    // Reading at the transfer's start (the connection idled 5 s), and 10 s into a window-limited transfer.
    const atStart = sampleFrom(windowsReading({ rwinMs: 0, cwndMs: 0, sndMs: 5000 }), 0, 0);
    const later = sampleFrom(windowsReading({ rwinMs: 9000, cwndMs: 900, sndMs: 5100 }), 10, 10);
    assert.equal(atStart.busyUs, 0, 'nothing was in flight yet (Rwin + Cwnd + Snd would say 5 s busy)');
    assert.equal(atStart.senderLimitedUs, 5e6);
    // The timers stay cumulative; the difference between the two readings is the transfer's.
    const busy = later.busyUs! - atStart.busyUs!;
    const rwnd = later.rwndLimitedUs! - atStart.rwndLimitedUs!;
    assert.equal(busy, 9.9e6);
    assert.equal(later.senderLimitedUs! - atStart.senderLimitedUs!, 0.1e6);
    assert.ok(rwnd / busy > 0.9, 'the receive window held the sender back');
    assert.ok(later.busyUs! / 15e6 < 0.7, "over the connection's whole life the idle start dilutes the share: why the analysis takes differences");
  });

  it('Snd-dominated: an application that wrote one second in ten shows 10 % busy, so application-limited can be concluded', () => {
    const s = sampleFrom(windowsReading({ rwinMs: 0, cwndMs: 1000, sndMs: 9000 }), 10, 10);
    assert.equal(s.busyUs, 1e6);
    assert.equal(s.senderLimitedUs, 9e6);
    assert.equal(s.cwndLimitedUs, 1e6);
    assert.equal(s.busyUs! / (s.busyUs! + s.senderLimitedUs!), 0.1);
  });

  it('no retransmit count: segments are estimated from BytesRetrans / MSS and say so', () => {
    assert.deepEqual(retransmits(windowsReading(null, { bytesRetrans: 14_600 })), {
      totalRetransSegments: 10,
      retransSource: 'estimated',
      bytesRetrans: 14_600,
    });
    // Rounded: 2.5 segments' worth of bytes (a partial segment retransmitted) is 3.
    assert.equal(retransmits(windowsReading(null, { bytesRetrans: 3650 })).totalRetransSegments, 3);
    // No bytes retransmitted is a measured 0, still labelled as the estimate it is.
    assert.deepEqual(sampleFrom(windowsReading(null), 1, 1).retransSource, 'estimated');
    assert.equal(sampleFrom(windowsReading(null), 1, 1).totalRetransSegments, 0);
  });

  it('without an MSS (or without BytesRetrans) the count is unknown: null, never 0', () => {
    const noMss = sampleFrom(windowsReading(null, { bytesRetrans: 14_600, mss: null }), 1, 1);
    assert.equal(noMss.totalRetransSegments, null);
    assert.equal(noMss.retransSource, undefined);
    assert.equal(noMss.bytesRetrans, 14_600);
    assert.equal(sampleFrom(windowsReading(null, { mss: 0 }), 1, 1).totalRetransSegments, null);
    const none = blank('windows-sio_tcp_info_v1');
    assert.deepEqual(retransmits(none), { totalRetransSegments: null, bytesRetrans: null });
  });

  it('v0 (Windows 10 1703) has no timers: busy and every limit time are null, and named as missing', () => {
    const s = sampleFrom(windowsReading(null), 3, 3);
    for (const f of ['busyUs', 'rwndLimitedUs', 'cwndLimitedUs', 'senderLimitedUs', 'sndbufLimitedUs'] as const) assert.equal(s[f], null, f);
    const missing = missingSampleFields(windowsReading(null));
    for (const f of ['busyUs', 'rwndLimitedUs', 'cwndLimitedUs', 'senderLimitedUs']) assert.ok(missing.includes(f), `${f} in ${missing.join(', ')}`);
  });

  it('v1 misses only what Windows never counts; Linux-only fields are not called missing on Windows', () => {
    const missing = missingSampleFields(windowsReading({ rwinMs: 1, cwndMs: 1, sndMs: 1 }));
    assert.deepEqual(missing.sort(), [
      'deliveryRateBitsPerSecond',
      'notSentBytes',
      'rcvSpaceBytes',
      'rttVarUs',
      'sndCwndSegments',
      'sndbufLimitedUs',
      'unackedSegments',
    ]);
  });

  it('an older addon build that summed all three states into busyUs: busy is still Rwin + Cwnd', () => {
    const old = windowsReading(null);
    Object.assign(old, { source: 'windows-sio_tcp_info_v1', busyUs: 10e6, rwndLimitedUs: 3e6, cwndLimitedUs: 1e6 });
    assert.equal(sendLimits(old).busyUs, 4e6);
    assert.equal(sendLimits(old).senderLimitedUs, null, 'that build did not report Snd time on its own');
  });
});

/** A Linux tcp_info reading of a sender (kernel 6.x: every field). */
function linuxReading(): NativeTcpInfo {
  return Object.assign(blank('linux-tcp_info'), {
    rawBytes: 280,
    rttUs: 20_500,
    rttVarUs: 300,
    minRttUs: 20_000,
    sndCwndSegments: 40,
    sndCwndBytes: 57_920,
    sndSsthresh: 28,
    sndMssBytes: 1448,
    totalRetransSegments: 12,
    retransmitBytes: 17_376,
    lostSegments: 2,
    unackedSegments: 40,
    sndWndBytes: 650_000,
    rcvSpaceBytes: 14_480,
    deliveryRateBytesPerSec: 2.5e6,
    deliveryRateAppLimited: false,
    busyUs: 9e6,
    rwndLimitedUs: 1e6,
    sndbufLimitedUs: 0,
    notSentBytes: 0,
    dsackDups: 3,
    reordSeen: 1,
    pacingRateBytesPerSec: 3e6,
  });
}

describe('Linux tcp_info', () => {
  it('the extras go to the sample in the contract units; the kernel counts retransmits', () => {
    const s = sampleFrom(linuxReading(), 4, 4.0);
    assert.deepEqual(
      {
        totalRetransSegments: s.totalRetransSegments,
        retransSource: s.retransSource,
        bytesRetrans: s.bytesRetrans,
        lostSegments: s.lostSegments,
        ssthreshSegments: s.ssthreshSegments,
        dsackDups: s.dsackDups,
        reordSeen: s.reordSeen,
        pacingRateBitsPerSecond: s.pacingRateBitsPerSecond,
        deliveryRateBitsPerSecond: s.deliveryRateBitsPerSecond,
        appLimited: s.appLimited,
        busyUs: s.busyUs,
        rwndLimitedUs: s.rwndLimitedUs,
        cwndLimitedUs: s.cwndLimitedUs,
        senderLimitedUs: s.senderLimitedUs,
      },
      {
        totalRetransSegments: 12,
        retransSource: 'counted',
        bytesRetrans: 17_376,
        lostSegments: 2,
        ssthreshSegments: 28,
        dsackDups: 3,
        reordSeen: 1,
        pacingRateBitsPerSecond: 24e6,
        deliveryRateBitsPerSecond: 20e6,
        appLimited: false,
        busyUs: 9e6,
        rwndLimitedUs: 1e6,
        cwndLimitedUs: null,
        senderLimitedUs: null,
      },
    );
    assert.deepEqual(missingSampleFields(linuxReading()), [], 'Linux keeps no cwnd- or sender-limited timer: not a missing figure');
  });

  it('a kernel older than a field (a shorter tcp_info): the field is null and named as missing', () => {
    const old = Object.assign(linuxReading(), { rawBytes: 192, dsackDups: null, reordSeen: null, bytesRetrans: null, retransmitBytes: null });
    const s = sampleFrom(old, 1, 1);
    assert.equal(s.dsackDups, null);
    assert.equal(s.bytesRetrans, null);
    assert.deepEqual(missingSampleFields(old), ['bytesRetrans', 'dsackDups', 'reordSeen']);
  });

  it('an unpaced socket has no pacing rate: null, and not called missing', () => {
    const r = Object.assign(linuxReading(), { pacingRateBytesPerSec: null });
    assert.equal(sampleFrom(r, 1, 1).pacingRateBitsPerSecond, null);
    assert.deepEqual(missingSampleFields(r), []);
  });

  it('macOS ssthresh is in bytes: not reported as segments', () => {
    const r = Object.assign(blank('macos-tcp_connection_info'), { sndSsthresh: 65_535, totalRetransSegments: 0 });
    assert.equal(sampleFrom(r, 1, 1).ssthreshSegments, null);
    assert.equal(sampleFrom(r, 1, 1).retransSource, 'counted');
  });

  it('source names map to their family', () => {
    assert.deepEqual(['linux-tcp_info', 'windows-sio_tcp_info_v0', 'windows-sio_tcp_info', 'macos-tcp_connection_info', ''].map(tcpInfoFamily), [
      'linux',
      'windows',
      'windows',
      'macos',
      'other',
    ]);
  });
});
