/** A minimal, schema-shaped result document for tests of code that only stores and lists results. */
import type { LonghaulResult } from '../../electron/contract/result.js';

export function fakeResult(id: string, startedAt: string, bytes: number): LonghaulResult {
  const total = { bytes, sentBytes: bytes, seconds: 1, bitsPerSecond: bytes * 8, streamSumBitsPerSecond: bytes * 8, completions: 1 };
  return {
    schema: 'longhaul.result/1',
    id,
    software: 'longhaul/test',
    startedAt,
    endedAt: startedAt,
    writtenBy: 'controller',
    controller: { hostname: 'a', address: 'local', software: 'longhaul/test' },
    responder: { hostname: 'b', address: '127.0.0.1:5211', software: 'longhaul/test' },
    params: { streams: 1, bufferBytes: 131072, windowBytes: null, bytes: null, seconds: 1, direction: 'forward', intervalSeconds: 1 },
    window: { requestedBytes: null, applied: false, note: 'OS default (autotuning)' },
    streams: [],
    intervals: [],
    total,
    directions: { controllerToResponder: total },
    partial: false,
    partialReason: null,
    errors: [],
  };
}
