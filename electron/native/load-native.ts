/**
 * Loads the socket addon once per process. Never throws: where the addon is
 * missing (no compiler at install time, unsupported OS, the no-native switch of switches.ts)
 * callers get `{ api: null, reason }` and fall back on the OS defaults, saying why.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeApi, NativeBinding, NativeOwnedConn, NativeTcpInfo, RelayNotify } from './native-api.js';
import { NO_NATIVE_ENV, readSwitches } from './switches.js';

type NativeStatus = { api: NativeApi; reason: null } | { api: null; reason: string };

/** native/ at the package root: dist/electron/native/ → ../../../native. */
const NATIVE_DIR = fileURLToPath(new URL('../../../native/', import.meta.url));

let cached: NativeStatus | null = null;

function load(): NativeStatus {
  if (readSwitches().noNative) {
    return { api: null, reason: `the native socket addon is disabled (${NO_NATIVE_ENV}=1)` };
  }
  const require = createRequire(import.meta.url);
  try {
    const binding = loadBinding(require);
    if (typeof binding.tcpInfoInto !== 'function' || !Array.isArray(binding.tcpInfoFields) || typeof binding.createTcpSocket !== 'function') {
      return { api: null, reason: 'the native socket addon loaded but lacks expected functions (stale build? run npm run build:native)' };
    }
    return { api: wrap(binding), reason: null };
  } catch (err) {
    const first = String((err as Error).message ?? err).split('\n')[0];
    return { api: null, reason: `the native socket addon is not built (${first}); run npm run build:native (needs a C++ compiler)` };
  }
}

/**
 * node-gyp-build's choice (a local build in native/build/Release first, then the prebuild for
 * this platform and arch). A local build for another OS (a Linux checkout run by Windows' node.exe
 * under Wine, a copied folder) does not load: then the prebuild for this platform is tried
 * directly, and the error says both.
 */
function loadBinding(require: NodeJS.Require): NativeBinding {
  const gypBuild = require('node-gyp-build') as (dir: string) => unknown;
  try {
    return gypBuild(NATIVE_DIR) as NativeBinding;
  } catch (first) {
    const dir = path.join(NATIVE_DIR, 'prebuilds', `${process.platform}-${process.arch}`);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.node')) : [];
    const [file] = files;
    if (file === undefined) throw first;
    try {
      return require(path.join(dir, file)) as NativeBinding;
    } catch (second) {
      throw new Error(`${(first as Error).message}; the prebuild ${file} does not load either: ${(second as Error).message}`);
    }
  }
}

/** The binding plus `tcpInfo()`, which maps the flat readings onto named, nullable fields. */
function wrap(b: NativeBinding): NativeApi {
  const scratch = new Float64Array(b.tcpInfoFields.length);
  const index = new Map(b.tcpInfoFields.map((name, i) => [name, i]));
  // A field this build of the addon does not know reads as null, like one the OS does not report.
  const at = (name: keyof NativeTcpInfo): number => index.get(name) ?? -1;
  const num = (i: number): number | null => {
    const v = scratch[i]; // undefined for -1
    return v === undefined || Number.isNaN(v) ? null : v;
  };
  const bool = (i: number): boolean | null => {
    const v = num(i);
    return v === null ? null : v !== 0;
  };
  const ix = {
    state: at('state'),
    rttUs: at('rttUs'),
    rttVarUs: at('rttVarUs'),
    minRttUs: at('minRttUs'),
    sndCwndSegments: at('sndCwndSegments'),
    sndCwndBytes: at('sndCwndBytes'),
    sndSsthresh: at('sndSsthresh'),
    sndMssBytes: at('sndMssBytes'),
    rcvMssBytes: at('rcvMssBytes'),
    advMssBytes: at('advMssBytes'),
    pmtuBytes: at('pmtuBytes'),
    totalRetransSegments: at('totalRetransSegments'),
    retransmitBytes: at('retransmitBytes'),
    lostSegments: at('lostSegments'),
    unackedSegments: at('unackedSegments'),
    bytesInFlight: at('bytesInFlight'),
    sndWndBytes: at('sndWndBytes'),
    rcvWndBytes: at('rcvWndBytes'),
    rcvSpaceBytes: at('rcvSpaceBytes'),
    rcvSsthreshBytes: at('rcvSsthreshBytes'),
    sndWscale: at('sndWscale'),
    rcvWscale: at('rcvWscale'),
    wscaleNegotiated: at('wscaleNegotiated'),
    deliveryRateBytesPerSec: at('deliveryRateBytesPerSec'),
    deliveryRateAppLimited: at('deliveryRateAppLimited'),
    busyUs: at('busyUs'),
    rwndLimitedUs: at('rwndLimitedUs'),
    sndbufLimitedUs: at('sndbufLimitedUs'),
    cwndLimitedUs: at('cwndLimitedUs'),
    bytesSent: at('bytesSent'),
    bytesAcked: at('bytesAcked'),
    bytesReceived: at('bytesReceived'),
    notSentBytes: at('notSentBytes'),
    senderLimitedUs: at('senderLimitedUs'),
    dsackDups: at('dsackDups'),
    reordSeen: at('reordSeen'),
    pacingRateBytesPerSec: at('pacingRateBytesPerSec'),
    dataSegsIn: at('dataSegsIn'),
  };
  const clamp =
    b.windowClampSupported === true && b.setWindowClamp && b.getWindowClamp && b.setBuffersForce
      ? { set: b.setWindowClamp.bind(b), get: b.getWindowClamp.bind(b), forceBuffers: b.setBuffersForce.bind(b) }
      : null;
  return {
    tcpInfoSource: b.tcpInfoSource,
    wineVersion: b.wineVersion ? b.wineVersion : null,
    windowClamp: clamp,
    owned: ownedConn(b),
    startRelay: b.Relay
      ? (
          (R) => (src: number, dst: number, notify: RelayNotify) =>
            new R(src, dst, notify)
        )(b.Relay)
      : null,
    congestionControl:
      b.congestionControlSupported === true && b.getCongestion && b.setCongestion ? { get: b.getCongestion.bind(b), set: b.setCongestion.bind(b) } : null,
    maxSeg: b.setMaxSeg && b.getMaxSeg ? { set: b.setMaxSeg.bind(b), get: b.getMaxSeg.bind(b) } : null,
    maxPacingRate:
      b.maxPacingRateSupported === true && b.getMaxPacingRate && b.setMaxPacingRate
        ? { get: b.getMaxPacingRate.bind(b), set: b.setMaxPacingRate.bind(b) }
        : null,
    setNotSentLowat: b.notSentLowatSupported === true && b.setNotSentLowat ? b.setNotSentLowat.bind(b) : null,
    createTcpSocket: (o) => b.createTcpSocket(o),
    setBuffers: (fd, snd, rcv) => b.setBuffers(fd, snd, rcv),
    getBuffers: (fd) => b.getBuffers(fd),
    setBufferLocks: (fd, snd, rcv) => b.setBufferLocks(fd, snd, rcv),
    closeFd: (fd) => b.closeFd(fd),
    pumpSupported: Boolean(b.pumpSupported && b.Pump),
    startPump: (fd, opts, onDone) => (b.pumpSupported && b.Pump ? new b.Pump(fd, opts, onDone) : null),
    udpSendSupported: Boolean(b.udpSendSupported && b.UdpSend),
    startUdpSend: (fd, opts, onDone) => (b.udpSendSupported && b.UdpSend ? new b.UdpSend(fd, opts, onDone) : null),
    tcpInfo(fd: number): NativeTcpInfo {
      const rawBytes = b.tcpInfoInto(fd, scratch);
      // One object literal of fixed shape: cheap to build at every tick for every stream.
      return {
        source: b.tcpInfoSource,
        rawBytes,
        state: num(ix.state),
        rttUs: num(ix.rttUs),
        rttVarUs: num(ix.rttVarUs),
        minRttUs: num(ix.minRttUs),
        sndCwndSegments: num(ix.sndCwndSegments),
        sndCwndBytes: num(ix.sndCwndBytes),
        sndSsthresh: num(ix.sndSsthresh),
        sndMssBytes: num(ix.sndMssBytes),
        rcvMssBytes: num(ix.rcvMssBytes),
        advMssBytes: num(ix.advMssBytes),
        pmtuBytes: num(ix.pmtuBytes),
        totalRetransSegments: num(ix.totalRetransSegments),
        retransmitBytes: num(ix.retransmitBytes),
        lostSegments: num(ix.lostSegments),
        unackedSegments: num(ix.unackedSegments),
        bytesInFlight: num(ix.bytesInFlight),
        sndWndBytes: num(ix.sndWndBytes),
        rcvWndBytes: num(ix.rcvWndBytes),
        rcvSpaceBytes: num(ix.rcvSpaceBytes),
        rcvSsthreshBytes: num(ix.rcvSsthreshBytes),
        sndWscale: num(ix.sndWscale),
        rcvWscale: num(ix.rcvWscale),
        wscaleNegotiated: bool(ix.wscaleNegotiated),
        deliveryRateBytesPerSec: num(ix.deliveryRateBytesPerSec),
        deliveryRateAppLimited: bool(ix.deliveryRateAppLimited),
        busyUs: num(ix.busyUs),
        rwndLimitedUs: num(ix.rwndLimitedUs),
        sndbufLimitedUs: num(ix.sndbufLimitedUs),
        cwndLimitedUs: num(ix.cwndLimitedUs),
        bytesSent: num(ix.bytesSent),
        bytesAcked: num(ix.bytesAcked),
        bytesReceived: num(ix.bytesReceived),
        notSentBytes: num(ix.notSentBytes),
        senderLimitedUs: num(ix.senderLimitedUs),
        dsackDups: num(ix.dsackDups),
        reordSeen: num(ix.reordSeen),
        pacingRateBytesPerSec: num(ix.pacingRateBytesPerSec),
        dataSegsIn: num(ix.dataSegsIn),
      };
    },
  };
}

/** The owned-connection calls as promises, or null in builds that predate them. */
function ownedConn(b: NativeBinding): NativeOwnedConn | null {
  const { connectStream, bindListen, acceptStream, readExact, shutdownSend, duplicateSocket, socketFromDuplicate } = b;
  if (!connectStream || !bindListen || !acceptStream || !readExact || !shutdownSend || !duplicateSocket || !socketFromDuplicate) return null;
  return {
    connect: (fd, address, port, header, timeoutMs) =>
      new Promise((resolve, reject) => connectStream.call(b, fd, { address, port, header, timeoutMs }, (err) => (err ? reject(err) : resolve()))),
    bindListen: (fd, address, port, backlog) => bindListen.call(b, fd, address, port, backlog),
    accept: (fd, timeoutMs) => new Promise((resolve, reject) => acceptStream.call(b, fd, timeoutMs, (err, c) => (err ? reject(err) : resolve(c)))),
    readExact: (fd, bytes, timeoutMs) =>
      new Promise((resolve, reject) =>
        readExact.call(b, fd, bytes, timeoutMs, (err, buf) => (err || !buf ? reject(err ?? new Error('readExact: no data')) : resolve(buf))),
      ),
    shutdownSend: (fd) => shutdownSend.call(b, fd),
    duplicate: (fd, pid) => duplicateSocket.call(b, fd, pid),
    fromDuplicate: (info) => socketFromDuplicate.call(b, info),
  };
}

/** The addon, or null and the reason it is unavailable. Cached for the process. */
export function nativeSockets(): NativeStatus {
  cached ??= load();
  return cached;
}
