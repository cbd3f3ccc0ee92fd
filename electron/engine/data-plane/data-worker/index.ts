/**
 * A data worker: a child process that owns some data streams of one role
 * (send or receive) and nothing else, so the sender, the receiver and the
 * control/UI loop never share an event loop (docs/measurements.md#worker-processes).
 * The engine forks this file, the folder's entry
 * (engine/data-plane/data-plane.ts); the streams themselves are a DataWorker
 * (./worker.ts), built from the engine's first message.
 */
import { DataWorker } from './worker.js';
import { UdpWorker } from './udp-worker.js';
import type { FromWorker, ToWorker } from '../worker-messages.js';
import { applyGcSchedule } from '../../../util/gc-schedule.js';
import { startMemoryLog } from '../../../util/memory-log.js';

applyGcSchedule();
startMemoryLog('worker');
let worker: DataWorker | UdpWorker | null = null;

function send(msg: FromWorker): void {
  if (process.connected) process.send?.(msg);
}

function onMessage(msg: ToWorker, handle?: unknown): void {
  if (msg.type === 'init') worker = msg.protocol === 'udp' ? new UdpWorker(msg, { send }) : new DataWorker(msg, { send });
  else worker?.handle(msg as never, handle);
}

process.on('message', onMessage as (m: unknown, h: unknown) => void);
// The engine process is our only reason to exist: when it goes, we go.
process.on('disconnect', () => process.exit(0));
// A console's Ctrl-C / Ctrl-Break / close reaches every process attached to it, this one too.
// The engine stops the run (and keeps what was measured); a worker killed by the signal would
// lose its streams' last counters, so it leaves the stop to the engine and goes at 'disconnect'.
for (const signal of ['SIGINT', 'SIGBREAK', 'SIGHUP'] as const) process.on(signal, () => undefined);
