/**
 * Fan-out of contract events to every connected UI (Electron windows,
 * browser-mode sockets). Each sink decides its own backpressure.
 */
import type { EventName, Events } from '../contract/api.js';

type EventSink = <K extends EventName>(name: K, payload: Events[K]['payload']) => void;

export class EventHub {
  private readonly sinks = new Set<EventSink>();

  /** Add a sink; returns its removal. */
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  emit<K extends EventName>(name: K, payload: Events[K]['payload']): void {
    for (const sink of this.sinks) {
      try {
        sink(name, payload);
      } catch {
        // One broken UI must not stop the others (or the run).
      }
    }
  }

  get size(): number {
    return this.sinks.size;
  }
}
