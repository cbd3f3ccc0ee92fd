/**
 * The parameters document (client → server after PARAM_EXCHANGE), both ways:
 * Longhaul's run parameters as iperf3 keys (client), and an iperf3 client's keys
 * as Longhaul's run parameters or a refusal (server).
 *
 * iperf3's own server reads every key with cJSON's `valueint`/`valuestring` whatever
 * its type, so `"parallel": "8"` became 0 and `"title": 5` a NULL dereference. Here
 * every key a server acts on has one type, checked before anything is done with it.
 */
import { z } from 'zod';
import type { ResultParams } from '../../contract/result.js';
import {
  MAX_BITRATE_BITS_PER_SEC,
  MAX_BUFFER_BYTES,
  MAX_MSS_BYTES,
  MAX_SECONDS,
  MAX_WINDOW_BYTES,
  MIN_BITRATE_BITS_PER_SEC,
  MIN_MSS_BYTES,
} from '../../contract/limits.js';
import { UDP_DEFAULT_BITS_PER_SEC, UDP_DEFAULT_DATAGRAM_BYTES, UDP_MAX_DATAGRAM_BYTES, UDP_MIN_DATAGRAM_BYTES } from '../../contract/udp.js';
import { ProtocolError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';
import { IPERF3_ERRNO } from './states.js';

/** iperf3's default block for TCP (DEFAULT_TCP_BLKSIZE). */
const IPERF3_DEFAULT_LEN = 128 * 1024;

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const flag = z.literal(true).or(z.literal(1)).or(z.literal(0)).or(z.literal(false));

/** The keys a server acts on, each with its type; other keys (title, extra_data, congestion…) are ignored. */
const paramsSchema = z
  .object({
    tcp: flag.optional(),
    udp: flag.optional(),
    sctp: flag.optional(),
    omit: count.optional(),
    time: count.optional(),
    num: count.optional(),
    blockcount: count.optional(),
    MSS: count.optional(),
    parallel: count.optional(),
    reverse: flag.optional(),
    bidirectional: flag.optional(),
    window: count.optional(),
    len: count.optional(),
    bandwidth: count.optional(),
    fqrate: count.optional(),
    burst: count.optional(),
    congestion: z.string().max(64).optional(),
    udp_counters_64bit: count.optional(),
    /** -Z: iperf3 (3.11 and later) sends `"zerocopy": 1` so that a server sending under -R uses sendfile too. */
    zerocopy: count.optional(),
    get_server_output: count.optional(),
    authtoken: z.string().max(8192).optional(),
    client_version: z.string().max(200).optional(),
  })
  .passthrough();

export interface Iperf3ClientAsk {
  params: ResultParams;
  /** The client's version as it says it (`client_version`, iperf3 ≥ 3.1), printable; null when absent. */
  version: string | null;
  /** The client asked for the server's output in the results (--get-server-output). */
  getServerOutput: boolean;
  /** UDP: the datagrams carry 64-bit counters (--udp-counters-64bit). */
  counters64: boolean;
}

type ParamsVerdict =
  | { kind: 'ok'; ask: Iperf3ClientAsk }
  /** Refused: the i_errno sent after SERVER_ERROR (the client prints its text) and Longhaul's own sentence. */
  | { kind: 'refuse'; iperfErrno: number; message: string };

export interface ServerLimits {
  maxStreams: number;
  maxSeconds: number;
  maxBytes: number;
}

const on = (v: unknown): boolean => v === true || v === 1;

/** Read an iperf3 client's parameters. Throws `ProtocolError` on wrong types; refuses what Longhaul does not do. */
export function readClientParams(value: unknown, limits: ServerLimits): ParamsVerdict {
  const r = paramsSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'parameters';
    throw new ProtocolError('LH_ERR_IPERF3_PROTOCOL', `iperf3 parameters: ${printable(where, 100)}: ${printable(issue?.message ?? 'malformed', 200)}`);
  }
  const p = r.data;
  const refuse = (iperfErrno: number, message: string): ParamsVerdict => ({ kind: 'refuse', iperfErrno, message });
  const udp = on(p.udp);
  if (on(p.sctp)) return refuse(IPERF3_ERRNO.IEUNIMP, 'an SCTP test (--sctp): Longhaul measures TCP and UDP');
  if (p.authtoken !== undefined)
    return refuse(IPERF3_ERRNO.IEAUTHTEST, 'an authenticated test (--username): Longhaul does not check iperf3 credentials; run without them');
  if (on(p.reverse) && on(p.bidirectional)) return refuse(IPERF3_ERRNO.IEMESSAGE, 'both -R and --bidir');
  if (p.burst) return refuse(IPERF3_ERRNO.IEUNIMP, 'a burst (-b RATE/COUNT): Longhaul paces evenly; give -b RATE alone');
  // -b and --fq-rate are both bits/s per stream in iperf3 (its own pacing and SO_MAX_PACING_RATE): Longhaul's
  // --bitrate is both, so the lower one asked is the rate its senders (reverse, bidir) keep to.
  // -C: iperf3's `congestion`, the same TCP_CONGESTION name Longhaul's --congestion sets on every stream end.
  const cc = p.congestion ?? null;
  if (cc !== null && !/^[a-z0-9_-]{1,15}$/i.test(cc)) return refuse(IPERF3_ERRNO.IEUNIMP, `a congestion control named "${printable(cc, 40)}"`);
  // UDP: iperf3's client says its rate (1 Mbit/s unless -b) and leaves the key out for -b 0, "as fast as it
  // goes": it may send so, but this server's senders (-R, --bidir) keep a schedule, and there is none to keep.
  if (udp && !p.bandwidth && (on(p.reverse) || on(p.bidirectional)))
    return refuse(IPERF3_ERRNO.IEUNIMP, 'an unpaced UDP test (-b 0) where this server sends: give -b RATE');
  const bitrate = Math.min(p.bandwidth || Infinity, p.fqrate || Infinity);
  if (Number.isFinite(bitrate) && (bitrate < MIN_BITRATE_BITS_PER_SEC || bitrate > MAX_BITRATE_BITS_PER_SEC))
    return refuse(IPERF3_ERRNO.IEUNIMP, `a bitrate of ${bitrate} bit/s (${MIN_BITRATE_BITS_PER_SEC} to ${MAX_BITRATE_BITS_PER_SEC} bit/s per stream)`);
  const streams = p.parallel ?? 1;
  if (streams < 1 || streams > limits.maxStreams)
    return refuse(IPERF3_ERRNO.IENUMSTREAMS, `${streams} parallel streams (this server takes 1 to ${limits.maxStreams})`);
  const len = p.len || (udp ? UDP_DEFAULT_DATAGRAM_BYTES : IPERF3_DEFAULT_LEN);
  if (len > MAX_BUFFER_BYTES) return refuse(IPERF3_ERRNO.IEBLOCKSIZE, `a block of ${len} bytes (at most ${MAX_BUFFER_BYTES})`);
  if (udp && (len < UDP_MIN_DATAGRAM_BYTES || len > UDP_MAX_DATAGRAM_BYTES))
    return refuse(IPERF3_ERRNO.IEUDPBLOCKSIZE, `a datagram of ${len} bytes (${UDP_MIN_DATAGRAM_BYTES} to ${UDP_MAX_DATAGRAM_BYTES})`);
  if (udp && (p.MSS || p.congestion)) return refuse(IPERF3_ERRNO.IEUNIMP, 'an MSS or a congestion control with -u (UDP has neither)');
  if ((p.window ?? 0) > MAX_WINDOW_BYTES) return refuse(IPERF3_ERRNO.IEBUFSIZE, `a window of ${p.window} bytes (at most ${MAX_WINDOW_BYTES})`);
  const mss = p.MSS || null;
  if (mss !== null && (mss < MIN_MSS_BYTES || mss > MAX_MSS_BYTES))
    return refuse(IPERF3_ERRNO.IEUNIMP, `an MSS of ${mss} bytes (${MIN_MSS_BYTES} to ${MAX_MSS_BYTES})`);
  // iperf3 ends on the first of: bytes (-n), blocks (-k, whole blocks of -l), time (-t).
  const bytes = p.num ? p.num : p.blockcount ? p.blockcount * len : null;
  // -O: iperf3 runs its -t AFTER the omitted seconds, so the run lasts time + omit, of which the first omit are left out.
  const omit = p.omit ?? 0;
  const seconds = bytes === null ? (p.time ?? 10) + (p.time ? omit : 0) : null;
  if (bytes === null && (!seconds || seconds > Math.min(limits.maxSeconds, MAX_SECONDS))) {
    return refuse(IPERF3_ERRNO.IEDURATION, seconds ? `a ${seconds}-second test (at most ${limits.maxSeconds})` : 'an endless test (-t 0)');
  }
  if (bytes !== null && bytes > limits.maxBytes) return refuse(IPERF3_ERRNO.IEUNIMP, `${bytes} bytes (at most ${limits.maxBytes} per run)`);
  return {
    kind: 'ok',
    ask: {
      params: {
        streams,
        bufferBytes: len,
        windowBytes: p.window || null,
        bytes,
        seconds,
        direction: on(p.bidirectional) ? 'bidir' : on(p.reverse) ? 'reverse' : 'forward',
        intervalSeconds: 1,
        ...(mss !== null ? { mssBytes: mss } : {}),
        ...(Number.isFinite(bitrate) ? { bitrateBitsPerSec: bitrate } : {}),
        ...(cc !== null ? { congestionControl: cc } : {}),
        ...(omit > 0 ? { omitSeconds: omit } : {}),
        // -Z: this server's senders (-R, --bidir) use sendfile(2) as iperf3's would; UDP sends datagrams and ignores it, as iperf3 does.
        ...(p.zerocopy && !udp ? { zeroCopy: true as const } : {}),
        ...(udp ? { protocol: 'udp' as const } : {}),
      },
      version: p.client_version !== undefined ? printable(p.client_version, 40) : null,
      getServerOutput: Boolean(p.get_server_output),
      counters64: Boolean(p.udp_counters_64bit),
    },
  };
}

/**
 * Longhaul's run as an iperf3 client's parameters. `time` is iperf3's whole seconds
 * (a fraction is rounded up: the server's own timers give it at least that long).
 */
export function clientParamsDocument(params: ResultParams, getServerOutput: boolean): Record<string, unknown> {
  const udp = params.protocol === 'udp';
  return {
    ...(udp ? { udp: true } : { tcp: true }),
    // --omit is inside Longhaul's --seconds; iperf3's -t starts after its -O (whole seconds): the same run is time − omit.
    omit: omitOf(params),
    time: params.seconds === null ? 0 : Math.max(1, Math.ceil(params.seconds) - omitOf(params)),
    num: params.bytes ?? 0,
    blockcount: 0,
    ...(params.mssBytes ? { MSS: params.mssBytes } : {}),
    parallel: params.streams,
    ...(params.direction === 'reverse' ? { reverse: true } : {}),
    ...(params.direction === 'bidir' ? { bidirectional: true } : {}),
    ...(params.windowBytes !== null ? { window: params.windowBytes } : {}),
    len: params.bufferBytes,
    // --bitrate is per stream, as iperf3's -b (`bandwidth`, bits/s): an iperf3 server paces its senders (-R, --bidir) with it.
    // UDP: the rate the sender keeps (iperf3's own default, 1 Mbit/s, when none was given).
    ...(params.bitrateBitsPerSec || udp ? { bandwidth: Math.round(params.bitrateBitsPerSec ?? UDP_DEFAULT_BITS_PER_SEC) } : {}),
    pacing_timer: 1000,
    ...(params.congestionControl ? { congestion: params.congestionControl } : {}),
    // -Z, as iperf3's client says it: a server that reads it (iperf3 3.11 and later) sends with sendfile(2) under -R.
    ...(params.zeroCopy ? { zerocopy: 1 } : {}),
    ...(getServerOutput ? { get_server_output: 1 } : {}),
  };
}

/** `--omit` in iperf3's whole seconds (rounded up: never fewer seconds left out than asked). */
function omitOf(params: ResultParams): number {
  return params.omitSeconds ? Math.ceil(params.omitSeconds) : 0;
}
