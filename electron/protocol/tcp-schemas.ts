/**
 * Wire schemas for the socket and TCP_INFO figures both ends exchange
 * (optional fields of `sample` and `results`, so peers without them still
 * interoperate). The shapes are the result contract's SocketReport / TcpSample.
 */
import { z } from 'zod';
import { peerText } from './peer-text.js';
import type { SocketReport, TcpSample } from '../contract/result.js';

const count = z.number().min(0).max(Number.MAX_SAFE_INTEGER).nullable();
const text = peerText(500);

const tcpSampleSchema = z.object({
  index: z.number().int().min(0).max(10_000_000),
  t: z.number().min(0).max(1e7),
  rttUs: count,
  rttVarUs: count,
  minRttUs: count.optional(),
  sndCwndSegments: count,
  sndCwndBytes: count,
  totalRetransSegments: count,
  sndWndBytes: count,
  rcvSpaceBytes: count,
  deliveryRateBitsPerSecond: count,
  busyUs: count,
  rwndLimitedUs: count,
  sndbufLimitedUs: count,
  unackedSegments: count,
  notSentBytes: count,
  cwndLimitedUs: count.optional(),
  senderLimitedUs: count.optional(),
  bytesRetrans: count.optional(),
  retransSource: z.enum(['counted', 'estimated']).optional(),
  lostSegments: count.optional(),
  ssthreshSegments: count.optional(),
  dsackDups: count.optional(),
  reordSeen: count.optional(),
  pacingRateBitsPerSecond: count.optional(),
  dataSegsIn: count.optional(),
  rcvMssBytes: count.optional(),
  appLimited: z.boolean().nullable().optional(),
}) satisfies z.ZodType<TcpSample>;

export const socketReportSchema = z.object({
  requestedBytes: z.number().int().min(1).nullable(),
  windowClampBytes: z.number().int().min(0).nullable().optional(),
  buffersForced: z.boolean().optional(),
  appliedBeforeHandshake: z.boolean(),
  sndBufBytes: count,
  rcvBufBytes: count,
  sndBufLocked: z.boolean().nullable(),
  rcvBufLocked: z.boolean().nullable(),
  sndMssBytes: count,
  rcvMssBytes: count,
  advMssBytes: count.optional(),
  pmtuBytes: count,
  mssRequestedBytes: z.number().int().min(1).max(65_535).nullable().optional(),
  mssApplied: z.boolean().optional(),
  congestionControl: peerText(32).nullable().optional(),
  sndWscale: z.number().int().min(0).max(14).nullable(),
  rcvWscale: z.number().int().min(0).max(14).nullable(),
  wscaleNegotiated: z.boolean().nullable(),
  tcpInfoSource: peerText(64).nullable(),
  unavailable: z.array(z.object({ field: peerText(64), reason: text })).max(64),
}) satisfies z.ZodType<SocketReport>;

/** Per-side TCP_INFO readings at one tick: [streamId, sample]. */
export const sampleTcpSchema = z.array(z.tuple([z.number().int().min(0).max(255), tcpSampleSchema])).max(256);
