/**
 * The last thing said to a connection that is turned away: one frame, then
 * the descriptor goes. A stranger must not hold a descriptor past its answer:
 * a flood of them, each ended but destroyed only seconds later, ran a
 * responder under `ulimit -n 128` out of descriptors.
 */
import type net from 'node:net';

/**
 * How long the answer may take to leave before the connection is destroyed anyway, ms. An answer is a
 * frame of a few hundred bytes: on any link it is in the kernel's send buffer at once, and a peer that
 * does not read cannot hold the descriptor longer than this.
 */
const ANSWER_FLUSH_MS = 1000;

/** Send `frame`, then destroy the socket as soon as it is written, at the latest after `ANSWER_FLUSH_MS`. */
export function answerAndClose(socket: net.Socket, frame: Buffer | Uint8Array): void {
  const timer = setTimeout(() => socket.destroy(), ANSWER_FLUSH_MS);
  timer.unref?.();
  socket.once('close', () => clearTimeout(timer));
  socket.end(frame, () => socket.destroy());
}
