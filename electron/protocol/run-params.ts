/**
 * What a run is asked to do, validated once at the edge (CLI, UI, control
 * channel) with one schema. Here, below the engine, because the control
 * channel's messages carry it (protocol/messages.ts).
 */
import { UDP_MAX_DATAGRAM_BYTES, UDP_MIN_DATAGRAM_BYTES, UDP_REFUSALS } from '../contract/udp.js';
import { z } from 'zod';
import { DIRECTIONS, type Direction } from '../contract/direction.js';

import {
  MAX_BITRATE_BITS_PER_SEC,
  MIN_BITRATE_BITS_PER_SEC,
  MAX_BUFFER_BYTES,
  MAX_INTERVAL_SECONDS,
  MAX_MSS_BYTES,
  MAX_SECONDS,
  MAX_STREAMS,
  MAX_WINDOW_BYTES,
  MIN_INTERVAL_SECONDS,
  MIN_MSS_BYTES,
} from '../contract/limits.js';

const directionSchema = z.enum(DIRECTIONS);
export type { Direction };

export const runParamsSchema = z
  .object({
    streams: z.number().int().min(1).max(MAX_STREAMS),
    bufferBytes: z.number().int().min(1).max(MAX_BUFFER_BYTES),
    /** Requested socket buffer (TCP window) per stream end; null = OS default (autotuning). */
    windowBytes: z.number().int().min(1).max(MAX_WINDOW_BYTES).nullable(),
    /** Total bytes over all streams of one direction; exclusive with `seconds`. */
    bytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
    seconds: z.number().positive().max(MAX_SECONDS).nullable(),
    direction: directionSchema,
    intervalSeconds: z.number().min(MIN_INTERVAL_SECONDS).max(MAX_INTERVAL_SECONDS),
    /**
     * Requested MSS (TCP_MAXSEG before the handshake on every stream end), bytes; null or absent =
     * the OS's own. Absent rather than null on the wire when not set, so an older peer's strict schema still accepts the run.
     */
    mssBytes: z.number().int().min(MIN_MSS_BYTES).max(MAX_MSS_BYTES).nullable().optional(),
    /**
     * Pace every sending stream at this many payload bits per second, PER STREAM (as iperf3's -b);
     * null or absent = unpaced. Both ends pace the streams they send (reverse and bidir: the
     * responder's too). Absent rather than null on the wire when not set, as `mssBytes`.
     */
    bitrateBitsPerSec: z.number().min(MIN_BITRATE_BITS_PER_SEC).max(MAX_BITRATE_BITS_PER_SEC).nullable().optional(),
    /**
     * `-C, --congestion`: the congestion control every stream end asks its socket for (Linux TCP_CONGESTION,
     * e.g. `bbr`); null or absent = the system's. What each end used is in its socket report.
     */
    congestionControl: z
      .string()
      .regex(/^[a-z0-9_-]{1,15}$/i, 'a congestion control name: letters, digits, - and _, at most 15')
      .nullable()
      .optional(),
    /** `-O, --omit`: seconds at the start left out of the totals and the verdict; absent when not set, as `mssBytes`. */
    omitSeconds: z.number().min(0).max(MAX_SECONDS).nullable().optional(),
    /**
     * `-Z, --zerocopy`: every sending stream end hands its bytes to the kernel with sendfile(2) where it
     * can (contract/send-path.ts), else copies and says why. Absent when not set, as `mssBytes`; a
     * partner that does not announce ZERO_COPY_CAPABILITY is sent the params without it.
     */
    zeroCopy: z.literal(true).optional(),
    /**
     * 'udp' (`-u`): datagrams of `bufferBytes`, paced at `bitrateBitsPerSec` per stream (docs/udp.md);
     * absent: TCP, so an older peer's strict schema still accepts a TCP run.
     */
    protocol: z.enum(['udp']).optional(),
    /** `path-capacity`: a run Longhaul made itself to measure the path (engine/session/capacity-run.ts), not the user's: not kept in History. */
    purpose: z.enum(['path-capacity']).optional(),
  })
  .strict()
  .refine((p) => (p.bytes === null) !== (p.seconds === null), {
    message: 'exactly one of bytes or seconds must be set',
  })
  .refine((p) => !p.omitSeconds || p.seconds === null || p.omitSeconds < p.seconds, {
    message: '--omit must be shorter than the run (--seconds)',
  })
  .refine((p) => p.protocol !== 'udp' || (p.bufferBytes >= UDP_MIN_DATAGRAM_BYTES && p.bufferBytes <= UDP_MAX_DATAGRAM_BYTES), {
    message: `a UDP datagram (-l) is ${UDP_MIN_DATAGRAM_BYTES}-${UDP_MAX_DATAGRAM_BYTES} bytes`,
  })
  .refine((p) => p.protocol !== 'udp' || !p.zeroCopy, {
    message: UDP_REFUSALS.zeroCopy,
  })
  .refine((p) => p.protocol !== 'udp' || (!p.congestionControl && !p.mssBytes), {
    message: 'UDP has no congestion control and no MSS',
  });

export type RunParams = z.infer<typeof runParamsSchema>;

export const DEFAULT_PARAMS: RunParams = {
  streams: 1,
  bufferBytes: 128 * 1024,
  windowBytes: null,
  bytes: null,
  seconds: 10,
  direction: 'forward',
  intervalSeconds: 1,
};
