/**
 * Read exactly one control frame from a socket (bounded in size and time) and
 * keep every raw byte read, so the connection can be handed on as if untouched.
 */
import type net from 'node:net';
import { FrameParser } from '../protocol/framing.js';
import { LonghaulError, ProtocolError } from '../util/errors.js';

type FirstFrame = { ok: true; message: Record<string, unknown>; raw: Buffer } | { ok: false; error: LonghaulError | null };

/** Before authentication a frame is a hello or a pair request: a few hundred bytes. */
const UNAUTHENTICATED_MAX_FRAME_BYTES = 16 * 1024;

export function readFirstFrame(socket: net.Socket, timeoutMs: number, maxFrameBytes = UNAUTHENTICATED_MAX_FRAME_BYTES): Promise<FirstFrame> {
  return new Promise((resolve) => {
    const parser = new FrameParser(maxFrameBytes);
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => finish({ ok: false, error: new LonghaulError('LH_ERR_TIMEOUT', `no complete first message within ${timeoutMs} ms`) }),
      Math.max(1, timeoutMs),
    );
    timer.unref?.();
    function finish(r: FirstFrame): void {
      clearTimeout(timer);
      socket.pause();
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(r);
    }
    function onData(chunk: Buffer): void {
      chunks.push(chunk);
      let messages: unknown[];
      try {
        messages = parser.push(chunk);
      } catch (err) {
        return finish({ ok: false, error: err as ProtocolError });
      }
      if (messages.length) finish({ ok: true, message: messages[0] as Record<string, unknown>, raw: Buffer.concat(chunks) });
    }
    function onClose(): void {
      finish({ ok: false, error: null });
    }
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.resume();
  });
}
