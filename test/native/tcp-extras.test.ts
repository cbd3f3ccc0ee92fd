/**
 * The TCP readings a verdict needs, read by the addon on real loopback sockets (Linux): the
 * congestion control per socket (TCP_CONGESTION, read and set), and tcp_info's ssthresh, pacing
 * rate, retransmitted bytes, DSACKs, reordering, the app-limited flag and the receiver's data segments,
 * as TcpSample fields.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, it } from 'node:test';
import type { NativeApi } from '../../electron/native/native-api.js';
import { describeSocket } from '../../electron/native/socket-report.js';
import { sampleFrom } from '../../electron/native/tcp-sample.js';
import { createTunedSocket } from '../../electron/native/tuned-socket.js';
import { socketFd } from '../../electron/native/node-handle.js';
import { closeServer, listenLocal, requireNative, writeBytes } from '../helpers/native.js';
import { within } from '../helpers/net.js';

const linux = process.platform === 'linux';
const opts = { timeout: 20_000, skip: linux ? false : 'Linux only (TCP_CONGESTION, tcp_info)' };
const NO_WINDOW = { requestedBytes: null, appliedBeforeHandshake: false, reason: null };

function sysctl(name: string): string {
  return readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim();
}

/**
 * A client whose congestion control is `cc` (null: the host's default), connected to a plain
 * listener on loopback; `bytes` written and, after a short pause, its TCP_INFO and both ends' reports.
 */
async function sendWith(api: NativeApi, cc: string | null, bytes: number, listenerCc: string | null = null) {
  let accepted: net.Socket | null = null;
  const { server, port } = await listenLocal((s) => {
    accepted = s;
    s.resume();
  });
  if (listenerCc) api.congestionControl!.set(socketFd(server)!, listenerCc);
  const { socket: client } = createTunedSocket(api, { family: 4, windowBytes: null });
  try {
    if (cc) api.congestionControl!.set(socketFd(client)!, cc);
    client.connect({ host: '127.0.0.1', port });
    await within(new Promise((r) => client.once('connect', r)), 5000, 'connect');
    await within(writeBytes(client, bytes), 10_000, `send ${bytes} B`);
    await new Promise((r) => setTimeout(r, 50)); // let the last ACKs arrive
    const fd = socketFd(client)!;
    const info = api.tcpInfo(fd);
    const acc = accepted as net.Socket | null;
    assert.ok(acc, 'the server accepted the connection');
    return {
      info,
      sample: sampleFrom(info, 1, 1),
      receiverInfo: api.tcpInfo(socketFd(acc)!),
      sender: describeSocket(api, fd, NO_WINDOW, null),
      receiver: describeSocket(api, socketFd(acc)!, NO_WINDOW, null),
    };
  } finally {
    client.destroy();
    (accepted as net.Socket | null)?.destroy();
    await closeServer(server);
  }
}

describe('TCP readings for the diagnosis (Linux, loopback)', () => {
  it("each end's congestion control: the host's default, or what was set on the socket (the listener's passes to accepted sockets)", opts, async (t) => {
    const api = requireNative();
    assert.ok(api.congestionControl, 'Linux builds read TCP_CONGESTION');
    const host = sysctl('tcp_congestion_control');
    const plain = await sendWith(api, null, 64 * 1024);
    assert.equal(plain.sender.congestionControl, host);
    assert.equal(plain.receiver.congestionControl, host);
    // An algorithm other than the default that this process may set (reno is in every kernel and allowed by default).
    const alt = ['reno', ...sysctl('tcp_allowed_congestion_control').split(' ')].find((x) => x !== host);
    if (!alt) return t.skip(`no congestion control other than ${host} is allowed here`);
    const client = await sendWith(api, alt, 64 * 1024);
    assert.deepEqual([client.sender.congestionControl, client.receiver.congestionControl], [alt, host], 'set on the client before connect');
    const listener = await sendWith(api, null, 64 * 1024, alt);
    assert.deepEqual([listener.sender.congestionControl, listener.receiver.congestionControl], [host, alt], 'set on the listener: accepted sockets inherit it');
    assert.equal(client.sender.unavailable.filter((u) => u.field === 'congestionControl').length, 0);
  });

  it('an algorithm the kernel does not have is refused with the OS error', opts, async () => {
    const api = requireNative();
    const { socket } = createTunedSocket(api, { family: 4, windowBytes: null });
    try {
      assert.throws(
        () => api.congestionControl!.set(socketFd(socket)!, 'no-such-cc'),
        (e: Error & { errno?: number; syscall?: string }) => e.errno === 2 && e.syscall === 'setsockopt(TCP_CONGESTION)',
      );
      assert.throws(() => api.congestionControl!.set(socketFd(socket)!, 'a-name-longer-than-15'), TypeError);
    } finally {
      socket.destroy();
    }
  });

  it("reno's pacing rate is its cwnd over the RTT times the kernel's pacing ratio; ssthresh is a segment count or 'not set'", opts, async () => {
    const api = requireNative();
    const { info, sample: s } = await sendWith(api, 'reno', 4 * 1024 * 1024);
    assert.ok(s.pacingRateBitsPerSecond !== null && s.pacingRateBitsPerSecond! > 0, `pacing ${s.pacingRateBitsPerSecond}`);
    // tcp_update_pacing_rate(): cwnd × MSS / srtt × ratio %, ratio tcp_pacing_ss_ratio below ssthresh / 2, else tcp_pacing_ca_ratio.
    const ratio = (info.pacingRateBytesPerSec! * info.rttUs!) / (info.sndCwndSegments! * info.sndMssBytes! * 1e6);
    const ss = Number(sysctl('tcp_pacing_ss_ratio')) / 100;
    const ca = Number(sysctl('tcp_pacing_ca_ratio')) / 100;
    const near = (x: number) => Math.abs(ratio - x) / x < 0.05;
    assert.ok(near(ss) || near(ca), `pacing ÷ (cwnd × MSS ÷ RTT) = ${ratio.toFixed(3)}, expected ${ss} or ${ca}`);
    const ssthresh = s.ssthreshSegments!;
    assert.ok(Number.isInteger(ssthresh) && ssthresh >= 2, `ssthresh ${ssthresh}`);
    assert.ok(ssthresh === 0x7fffffff || ssthresh < 1e6, `ssthresh ${ssthresh}: TCP_INFINITE_SSTHRESH (never set) or a segment count`);
    assert.equal(typeof s.appLimited, 'boolean');
  });

  it('retransmits are counted and their bytes recorded; on loopback nothing stays lost', opts, async (t) => {
    const api = requireNative();
    const { info, sample: s } = await sendWith(api, null, 1024 * 1024);
    assert.equal(s.retransSource, 'counted');
    assert.equal(s.lostSegments, 0);
    assert.equal(typeof s.bytesRetrans, 'number');
    assert.equal(typeof s.dsackDups, 'number');
    assert.equal(typeof s.reordSeen, 'number');
    // Usually 0. On a loaded machine a tail-loss probe can fire before the loopback ACK (PTO is 2 ms
    // at least): a spurious retransmission, which then shows as a DSACK. The counts must agree.
    assert.equal(s.bytesRetrans === 0, s.totalRetransSegments === 0, `bytes ${s.bytesRetrans}, segments ${s.totalRetransSegments}`);
    assert.ok(
      s.bytesRetrans! <= s.totalRetransSegments! * info.sndMssBytes!,
      `${s.bytesRetrans} B in ${s.totalRetransSegments} segments of ${info.sndMssBytes}`,
    );
    t.diagnostic(`retransmitted ${s.totalRetransSegments} segments, ${s.bytesRetrans} B; DSACKs ${s.dsackDups}; reordering ${s.reordSeen}`);
  });

  it('the receiver counts the data segments that arrived: none larger than its advertised MSS, so segments × that covers the bytes', opts, async (t) => {
    const api = requireNative();
    const bytes = 1024 * 1024;
    const { receiverInfo } = await sendWith(api, null, bytes);
    const r = sampleFrom(receiverInfo, 1, 1);
    const adv = receiverInfo.advMssBytes;
    assert.ok(typeof r.dataSegsIn === 'number' && r.dataSegsIn > 0, `dataSegsIn ${r.dataSegsIn}`);
    assert.ok(typeof r.rcvMssBytes === 'number' && r.rcvMssBytes > 0, `rcvMssBytes ${r.rcvMssBytes}`);
    // A segment carries at most the MSS this end advertised (a GRO/TSO super-segment counts as its MSS-sized parts).
    assert.ok(adv !== null && r.dataSegsIn * adv >= bytes, `${r.dataSegsIn} segments × ${adv} B < ${bytes} B sent`);
    t.diagnostic(`${r.dataSegsIn} data segments for ${bytes} B; advertised MSS ${adv} B, the MSS seen ${r.rcvMssBytes} B`);
  });
});
