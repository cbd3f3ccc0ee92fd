/** A stage context without a pipe, for feeding stages by hand. */
import assert from 'node:assert/strict';
import { isQueue, type QueueBehaviour, type Stage, type StageContext } from '../../../electron/proxy/stage.js';
import '../../../electron/proxy/stages/index.js';

export function fakeContext(o: { rttMs?: number; random?: () => number } = {}): StageContext & { losses: number } {
  const ctx = {
    direction: 'up' as const,
    rttMs: () => o.rttMs ?? 100,
    random: o.random ?? Math.random,
    shared: new Map<string, unknown>(),
    losses: 0,
    signalLoss: () => void ctx.losses++,
  };
  return ctx;
}

/** The stage as a queue; fails the test when its definition made it a gate only. */
export function asQueue(s: Stage): Stage & QueueBehaviour {
  assert.ok(isQueue(s), `${s.type} is a ${s.kind} stage, not a queue`);
  return s;
}
