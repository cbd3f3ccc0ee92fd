/**
 * Every connection to a responder's port starts either with a control frame or
 * with a data header ("LHD1" + cookie + stream id). This reads just enough to
 * tell them apart, with a timeout, and never more than a data header's bytes.
 */
import type net from 'node:net';
import { DATA_HEADER_BYTES, isDataMagic } from '../../protocol/data-header.js';
import { stopReading } from '../../native/node-handle.js';

type Sorted = { kind: 'control'; firstBytes: Buffer } | { kind: 'data'; header: Buffer } | { kind: 'dead'; reason: string };

/**
 * Resolve once the connection has shown what it is. A data connection is paused
 * with its reads stopped, so its raw handle can be handed to a worker untouched.
 */
export function sortConnection(socket: net.Socket, timeoutMs: number): Promise<Sorted> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (result: Sorted): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onGone);
      socket.off('close', onGone);
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'dead', reason: `sent nothing identifiable within ${timeoutMs} ms` }), timeoutMs);
    timer.unref?.();
    function onGone(): void {
      finish({ kind: 'dead', reason: 'closed before identifying itself' });
    }
    function onData(chunk: Buffer): void {
      chunks.push(chunk);
      length += chunk.length;
      if (length < 4) return;
      const all = Buffer.concat(chunks, length);
      if (!isDataMagic(all)) {
        socket.pause();
        return finish({ kind: 'control', firstBytes: all });
      }
      if (length < DATA_HEADER_BYTES) return;
      socket.pause();
      stopReading(socket);
      if (length > DATA_HEADER_BYTES) {
        // Payload before the start is a protocol violation; drop the connection.
        return finish({ kind: 'dead', reason: 'data connection sent bytes before the run started' });
      }
      finish({ kind: 'data', header: all });
    }
    socket.on('data', onData);
    socket.on('error', onGone);
    socket.on('close', onGone);
  });
}
