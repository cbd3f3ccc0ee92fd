/**
 * A run's parameters and its stream plan, for the engine's callers: the
 * parameters' schema and limits live in protocol/run-params.ts (the control
 * channel validates them too), the stream plan in contract/stream-plan.ts
 * (the UI's live charts use the same rule).
 */
