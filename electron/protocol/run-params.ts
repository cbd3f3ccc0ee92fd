/**
 * What a run is asked to do, validated once at the edge (CLI, UI, control
 * channel) with one schema. Here, below the engine, because the control
 * channel's messages carry it (protocol/messages.ts).
 */
import { z } from 'zod';

export const MAX_STREAMS = 128;
export const MAX_BUFFER_BYTES = 16 * 1024 * 1024;
export const MAX_WINDOW_BYTES = 1024 * 1024 * 1024;
export const MAX_SECONDS = 24 * 3600;
export const MIN_INTERVAL_SECONDS = 0.1;
/** TCP_MAXSEG bounds: Linux's TCP_MIN_MSS is 88; the MSS option is 16 bits (an OS may refuse less, and says so). */
export const MIN_MSS_BYTES = 88;
export const MAX_MSS_BYTES = 65_535;

export const directionSchema = z.enum(['forward', 'reverse', 'bidir']);
/** forward: controller sends; reverse: responder sends; bidir: both, N streams each way. */
export type Direction = z.infer<typeof directionSchema>;

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
    intervalSeconds: z.number().min(MIN_INTERVAL_SECONDS).max(60),
    /**
     * Requested MSS (TCP_MAXSEG before the handshake on every stream end), bytes; null or absent =
     * the OS's own. Absent rather than null on the wire when not set, so an older peer's strict schema still accepts the run.
     */
    mssBytes: z.number().int().min(MIN_MSS_BYTES).max(MAX_MSS_BYTES).nullable().optional(),
  })
  .strict()
  .refine((p) => (p.bytes === null) !== (p.seconds === null), {
    message: 'exactly one of bytes or seconds must be set',
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

