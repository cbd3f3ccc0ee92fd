/**
 * The results document each side sends after EXCHANGE_RESULTS (client first), in
 * iperf3's shape (send_results/get_results in iperf_api.c): CPU figures, whether
 * the sender counted retransmissions, and one object per stream by iperf3 id. A count that is an
 * estimate (Windows: bytes ÷ MSS) says so in `retransmits_estimated` and in the server's output text.
 */
import { z } from 'zod';
import type { CpuUse } from '../../contract/result.js';
import { ProtocolError } from '../../util/errors.js';
import { RETRANS_ESTIMATE_NOTE } from '../../contract/retrans-text.js';
import { printable } from '../../util/printable.js';
import { streamIndexOf } from './states.js';

/**
 * iperf3 3.12 writes its "not counted" -1 through an unsigned 64-bit conversion, as
 * 18446744073709551615: any number is accepted for these, and only a count below 2^53 is one.
 */
const countOrNot = z.number();
const asCount = (n: number): number | null => (Number.isSafeInteger(n) && n >= 0 ? n : null);

const streamSchema = z
  .object({
    id: z.number().int(),
    bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    retransmits: countOrNot,
    jitter: z.number(),
    errors: z.number(),
    packets: z.number(),
    start_time: z.number().min(0).max(1e7).optional(),
    end_time: z.number().min(0).max(1e7).optional(),
  })
  .passthrough();

const resultsSchema = z
  .object({
    cpu_util_total: z.number(),
    cpu_util_user: z.number(),
    cpu_util_system: z.number(),
    sender_has_retransmits: countOrNot,
    congestion_used: z.string().max(64).optional(),
    streams: z.array(streamSchema).max(512),
    server_output_json: z.record(z.string(), z.unknown()).optional(),
    server_output_text: z.string().optional(),
  })
  .passthrough();

/** One stream as the peer counted it. */
interface PeerStreamResult {
  /** Longhaul's 0-based index of the stream (accept/connect order). */
  index: number;
  bytes: number;
  /** Retransmitted segments on the peer's sending end, or null (-1: not counted). */
  retransmits: number | null;
  /** The peer's first and last byte, seconds since its stream started, or null when not sent (iperf3 < 3.2). */
  startSeconds: number | null;
  endSeconds: number | null;
  /**
   * UDP, as iperf3 counts (src/iperf_udp.c): a receiving end's RFC 3550 jitter (seconds), its lost
   * datagrams (gaps below the highest number seen, less late arrivals) and the highest number seen;
   * a sending end's datagrams sent (jitter and errors 0). Null where a figure is not a count.
   */
  udp: { jitterSeconds: number | null; errors: number | null; packets: number | null };
}

export interface PeerResults {
  streams: PeerStreamResult[];
  cpuPercent: number;
  /** The peer's CPU over the test as iperf3 counts it: process CPU ÷ wall time, percent of one core (total, user, system). */
  cpu: { totalPercent: number; userPercent: number; systemPercent: number };
  congestion: string | null;
  /** The server's version from its JSON output (--get-server-output with `iperf3 -s -J`), printable; else null. */
  serverVersion: string | null;
}

/** Read a peer's results. Throws `ProtocolError` on wrong types, unknown or repeated stream ids. */
export function readResults(value: unknown, streamCount: number): PeerResults {
  const r = resultsSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'results';
    throw new ProtocolError('LH_ERR_IPERF3_PROTOCOL', `iperf3 results: ${printable(where, 100)}: ${printable(issue?.message ?? 'malformed', 200)}`);
  }
  const seen = new Set<number>();
  const streams = r.data.streams.map((s) => {
    const index = streamIndexOf(s.id, streamCount);
    if (index === null || seen.has(index)) {
      throw new ProtocolError('LH_ERR_IPERF3_PROTOCOL', `iperf3 results: stream id ${s.id} is not one of this test's ${streamCount} streams, or comes twice`);
    }
    seen.add(index);
    return {
      index,
      bytes: s.bytes,
      retransmits: asCount(s.retransmits),
      startSeconds: s.start_time ?? null,
      endSeconds: s.end_time ?? null,
      udp: {
        jitterSeconds: Number.isFinite(s.jitter) && s.jitter >= 0 && s.jitter < 1e6 ? s.jitter : null,
        errors: asCount(s.errors),
        packets: asCount(s.packets),
      },
    };
  });
  const start = r.data.server_output_json?.start as { version?: unknown } | undefined;
  const version = typeof start?.version === 'string' ? printable(start.version.replace(/^iperf\s+/, ''), 40) : null;
  return {
    streams,
    cpuPercent: r.data.cpu_util_total,
    cpu: { totalPercent: r.data.cpu_util_total, userPercent: r.data.cpu_util_user, systemPercent: r.data.cpu_util_system },
    congestion: r.data.congestion_used !== undefined ? printable(r.data.congestion_used, 64) : null,
    serverVersion: version,
  };
}

/** The output text's line when this end's Retr figures are estimates. */
const RETRANS_ESTIMATE_LINE = `Retr here is estimated: ${RETRANS_ESTIMATE_NOTE}.`;

/** One local stream for the results we send. */
export interface LocalStreamResult {
  iperfId: number;
  /** Sender: bytes handed to the kernel; receiver: bytes read. */
  bytes: number;
  /** Retransmitted segments when this end sent and TCP_INFO said, else null. */
  retransmits: number | null;
  /** True when `retransmits` is bytes retransmitted ÷ MSS (Windows counts bytes, not segments). */
  retransEstimated?: boolean;
  /** First and last byte of this end, seconds since the test started. */
  startSeconds: number;
  endSeconds: number;
  /** UDP (iperf3's fields): a receiving end's jitter (s), lost datagrams and the highest number seen; a sending end's datagrams sent. */
  udp?: { jitterSeconds: number; errors: number; packets: number };
}

/**
 * Our results in iperf3's shape. CPU as iperf3's cpu_util() counts it: this end's process CPU
 * (here the engine and its data workers) ÷ the test's wall time, in percent of one core; 0 when
 * not measured (the test never started).
 */
export function resultsDocument(
  streams: LocalStreamResult[],
  sending: boolean,
  serverOutputText: string | null,
  cpu: CpuUse | null = null,
): Record<string, unknown> {
  const counted = sending && streams.some((s) => s.retransmits !== null);
  // iperf3 has no field for an estimate: its Retr column shows the number. The label goes where a person
  // reads it (the server's output text, with --get-server-output) and in a per-stream field iperf3 ignores.
  const estimated = sending && streams.some((s) => s.retransEstimated && s.retransmits !== null);
  const text = serverOutputText !== null && estimated ? `${serverOutputText}${RETRANS_ESTIMATE_LINE}\n` : serverOutputText;
  const percent = (seconds: number): number => (cpu && cpu.wallSeconds > 0 ? (seconds / cpu.wallSeconds) * 100 : 0);
  return {
    cpu_util_total: cpu ? cpu.shareOfOneCore * 100 : 0,
    cpu_util_user: cpu ? percent(cpu.userSeconds) : 0,
    cpu_util_system: cpu ? percent(cpu.systemSeconds) : 0,
    sender_has_retransmits: sending ? (counted ? 1 : 0) : -1,
    streams: streams.map((s) => ({
      id: s.iperfId,
      bytes: s.bytes,
      retransmits: s.retransmits ?? -1,
      jitter: s.udp?.jitterSeconds ?? 0,
      errors: s.udp?.errors ?? 0,
      packets: s.udp?.packets ?? 0,
      start_time: Math.max(0, s.startSeconds),
      end_time: Math.max(0, s.endSeconds),
      ...(s.retransEstimated && s.retransmits !== null ? { retransmits_estimated: true } : {}),
    })),
    ...(text !== null ? { server_output_text: text } : {}),
  };
}
