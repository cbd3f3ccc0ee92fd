/**
 * What each tool's JSON says about one loopback run of `npm run bench`: the rate, the bytes that
 * arrived, which end sent them, and (Longhaul) whether the figure can be trusted. Pure: the bench
 * spawns the tools and hands their output here; test/bench/loopback-figures.test.ts feeds it samples.
 *
 * Both tools call the end that starts a run the client (iperf3 -c, `longhaul run`: the controller)
 * and the end that waits the server (iperf3 -s, `longhaul listen`: the responder). With -R the
 * server sends in both: iperf3's client JSON says so in `end.sum_sent.sender` (true when the client
 * sent), Longhaul's in each stream's `sender`.
 */
import type { LonghaulResult } from '../../electron/contract/result.js';

/** Which end wrote the bytes. */
type Sender = 'client' | 'server';

/** One run as its tool reported it. */
export interface RunFigures {
  /** Received bytes × 8 over the receiver's seconds, as the tool states it. */
  bitsPerSecond: number;
  /** Bytes that arrived. */
  bytes: number;
  sender: Sender;
  streams: number;
  /** Bytes per write (-l). */
  lengthBytes: number;
  /** Why the figure may not measure what the row compares (empty: nothing found). */
  notes: string[];
}

/** The version in `iperf3 --version`'s first line (`iperf 3.21 (cJSON 1.7.15)` → `3.21`); null when absent. */
export function iperf3Version(text: string): string | null {
  return /^iperf\s+(\d+\.\d+(?:\.\d+)?\S*)/m.exec(text)?.[1] ?? null;
}

interface Iperf3Sum {
  bytes?: unknown;
  bits_per_second?: unknown;
  sender?: unknown;
}

interface Iperf3Client {
  error?: unknown;
  start?: { test_start?: { num_streams?: unknown; blksize?: unknown; reverse?: unknown } };
  end?: { sum_sent?: Iperf3Sum; sum_received?: Iperf3Sum };
}

function finite(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`${what} is ${JSON.stringify(x)}, not a number`);
  return x;
}

/**
 * An iperf3 client's `-J` output. `sum_received` is the receiver's view whichever end sent.
 * `sum_sent.sender` (3.7 and later) is true when the client sent; older versions fall back on `reverse`.
 * Throws with iperf3's own `error` when the run failed.
 */
export function iperf3Figures(text: string): RunFigures {
  let doc: Iperf3Client;
  try {
    doc = JSON.parse(text) as Iperf3Client;
  } catch {
    throw new Error(`iperf3 -J printed no JSON: ${text.slice(0, 200)}`);
  }
  if (doc.error !== undefined) throw new Error(`iperf3: ${String(doc.error)}`);
  const received = doc.end?.sum_received;
  const start = doc.start?.test_start;
  if (!received || !start) throw new Error('iperf3 -J output has no end.sum_received or start.test_start');
  const clientSent = typeof doc.end?.sum_sent?.sender === 'boolean' ? doc.end.sum_sent.sender : start.reverse !== 1;
  return {
    bitsPerSecond: finite(received.bits_per_second, 'iperf3 sum_received.bits_per_second'),
    bytes: finite(received.bytes, 'iperf3 sum_received.bytes'),
    sender: clientSent ? 'client' : 'server',
    streams: finite(start.num_streams, 'iperf3 num_streams'),
    lengthBytes: finite(start.blksize, 'iperf3 blksize'),
    notes: [],
  };
}

/**
 * A `longhaul run --json` result. A failed or partial run throws (its rate is not the tool's); an end
 * moved by Node's byte loop instead of the addon's, or figures the run could not measure, become notes:
 * the rate is still measured, but it is not the engine the row compares.
 */
export function longhaulFigures(doc: LonghaulResult): RunFigures {
  if (doc.partial || doc.errors.length > 0) {
    const why = [doc.partialReason, ...doc.errors.map((e) => `${e.code}: ${e.message}`)].filter(Boolean).join('; ');
    throw new Error(`longhaul run was partial or failed: ${why || 'no reason given'}`);
  }
  const senders = new Set(doc.streams.map((s) => s.sender));
  const only = [...senders][0];
  if (senders.size !== 1 || only === undefined) throw new Error(`longhaul result has streams sent by ${[...senders].join(' and ') || 'nobody'}`);
  const ends = doc.streams.flatMap((s) => [s.send, s.receive]);
  const notNative = ends.filter((e) => e?.io !== 'native').length;
  const notes: string[] = [];
  if (notNative > 0) notes.push(`${notNative} of ${ends.length} ends not on the native loop (Node's, or not said)`);
  const unavailable = doc.unavailable ?? [];
  if (unavailable.length > 0) notes.push(`unavailable: ${[...new Set(unavailable.map((u) => u.field))].join(', ')}`);
  return {
    bitsPerSecond: finite(doc.total.bitsPerSecond, 'longhaul total.bitsPerSecond'),
    bytes: finite(doc.total.bytes, 'longhaul total.bytes'),
    sender: only === 'controller' ? 'client' : 'server',
    streams: doc.params.streams,
    lengthBytes: doc.params.bufferBytes,
    notes,
  };
}
