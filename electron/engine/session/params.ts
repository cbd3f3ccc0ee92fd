/**
 * A run's parameters and its stream plan, for the engine's callers: the
 * parameters' schema and limits live in protocol/run-params.ts (the control
 * channel validates them too), the stream plan in contract/stream-plan.ts
 * (the UI's live charts use the same rule).
 */
export {
  DEFAULT_PARAMS,
  MAX_BUFFER_BYTES,
  MAX_SECONDS,
  MAX_STREAMS,
  MAX_WINDOW_BYTES,
  MIN_INTERVAL_SECONDS,
  MAX_MSS_BYTES,
  MIN_MSS_BYTES,
  runParamsSchema,
  type Direction,
  type RunParams,
} from '../../protocol/run-params.js';
export { planStreams, type PlannedStream, type StreamSender } from '../../contract/stream-plan.js';
