/**
 * An iperf3 control connection: the codec's reader on a socket, with one deadline
 * per read (a peer that stalls in any state is dropped, never waited on forever: the
 * iperf3 server's own "busy forever" after a vanished client, esnet/iperf#1986).
 * One read at a time; writes honour the socket's order.
 */
import type net from 'node:net';
import { Iperf3Reader, encodeErrorCodes, encodeJson, encodeState, type Expect, type Item } from '../../protocol/iperf3/reader.js';
import { stateName } from '../../protocol/iperf3/states.js';
import { LonghaulError, PeerError, ProtocolError } from '../../util/errors.js';

/**
 * An iperf3 partner as errors name it, `the iperf3 server at 192.0.2.7:5201`: iperf3 sends no host
 * name, so its address stands for it (contract/partner-label.ts's form before a hello).
 */
export function iperf3Partner(
  role: 'server' | 'client',
  socket: Pick<net.Socket, 'remoteAddress' | 'remotePort'>,
  fallbackAddress = 'an unknown address',
): string {
  const host = socket.remoteAddress ?? '';
  if (!host) return `the iperf3 ${role} at ${fallbackAddress}`;
  return `the iperf3 ${role} at ${host.includes(':') ? `[${host}]` : host}:${socket.remotePort ?? 0}`;
}

/** Bytes a peer may send ahead of what is expected: a JSON document at its cap and a few state bytes. */
const AHEAD_SLACK_BYTES = 64;

interface PendingRead {
  expect: Expect;
  resolve: (item: Item) => void;
  reject: (err: LonghaulError) => void;
  timer: NodeJS.Timeout;
  what: string;
}

export class Iperf3Control {
  private readonly reader: Iperf3Reader;
  private pending: PendingRead | null = null;
  private gone: LonghaulError | null = null;

  /**
   * @param maxJsonBytes the largest JSON document this side will read (sets how much may wait unread).
   * @param partner the other end as errors name it (`iperf3Partner`).
   */
  constructor(
    readonly socket: net.Socket,
    maxJsonBytes: number,
    readonly partner: string,
  ) {
    this.reader = new Iperf3Reader(maxJsonBytes + 4 + AHEAD_SLACK_BYTES);
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
  }

  /** Push whatever arrived; a malformed input fails the pending read (or the next one). */
  private readonly onData = (chunk: Buffer): void => {
    try {
      this.reader.push(chunk);
    } catch (err) {
      this.abort(err as ProtocolError);
      return;
    }
    this.settle();
  };

  private readonly onError = (err: Error): void => {
    this.abort(new PeerError('LH_ERR_PEER_GONE', `the control connection to ${this.partner} failed: ${err.message}`));
  };

  private readonly onClose = (): void => {
    this.abort(new PeerError('LH_ERR_PEER_GONE', `${this.partner} closed the control connection`));
  };

  private abort(err: LonghaulError): void {
    this.gone ??= err;
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.reject(this.gone);
  }

  private settle(): void {
    const p = this.pending;
    if (!p) return;
    let item: Item | undefined;
    try {
      item = this.reader.take(p.expect);
    } catch (err) {
      this.abort(err as ProtocolError);
      this.socket.destroy();
      return;
    }
    if (!item) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.resolve(item);
  }

  /** Read one item within `timeoutMs`; `what` names it in the timeout's message. */
  read(expect: Expect, timeoutMs: number, what: string): Promise<Item> {
    if (this.pending) return Promise.reject(new Error('iperf3 control: one read at a time'));
    return new Promise<Item>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = null;
        reject(new PeerError('LH_ERR_TIMEOUT', `${this.partner} sent no ${what} within ${Math.round(timeoutMs / 100) / 10} s`));
      }, timeoutMs);
      timer.unref?.();
      this.pending = { expect, resolve, reject, timer, what };
      // Bytes already buffered may complete it; a connection already gone fails it, after them.
      this.settle();
      if (this.pending && this.gone) this.abort(this.gone);
    });
  }

  /** Read a state byte; returns its value. */
  async readState(timeoutMs: number, what = 'state'): Promise<number> {
    const item = await this.read({ kind: 'state' }, timeoutMs, what);
    return item.kind === 'state' ? item.state : Number.NaN;
  }

  async readJson(maxBytes: number, timeoutMs: number, what: string): Promise<Record<string, unknown>> {
    const item = await this.read({ kind: 'json', maxBytes }, timeoutMs, what);
    if (item.kind !== 'json') throw new ProtocolError('LH_ERR_IPERF3_PROTOCOL', `expected ${what}`);
    return item.value;
  }

  writeState(state: number): void {
    if (!this.socket.destroyed) this.socket.write(encodeState(state));
  }

  writeJson(value: object, maxBytes: number): void {
    if (!this.socket.destroyed) this.socket.write(encodeJson(value, maxBytes));
  }

  writeServerError(iperfErrno: number, osErrno = 0): void {
    if (this.socket.destroyed) return;
    this.socket.write(Buffer.concat([encodeState(-2), encodeErrorCodes(iperfErrno, osErrno)]));
  }

  /** Send the last bytes, then close; the socket is destroyed after `graceMs` whatever the peer does. */
  end(graceMs = 2000): void {
    if (this.socket.destroyed) return;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), graceMs).unref();
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** A state byte the protocol did not expect here, as an error naming it. */
export function unexpectedState(state: number, where: string): ProtocolError {
  const name = stateName(state);
  return new ProtocolError('LH_ERR_IPERF3_PROTOCOL', `iperf3 sent ${name ?? 'state'} (${state}) ${where}`);
}

/**
 * Read the next state while a test runs. Silence is normal then (the other side speaks
 * again only at the end), so a read that times out is retried as long as bytes keep
 * moving (`bytesSoFar` grows) and `hardEndMs` (Date.now() clock) has not passed.
 */
export async function readStateWhileMoving(control: Iperf3Control, stepMs: number, hardEndMs: number, bytesSoFar: () => number, what: string): Promise<number> {
  let lastMoved = -1;
  for (;;) {
    try {
      return await control.readState(Math.max(1, Math.min(stepMs, hardEndMs - Date.now())), what);
    } catch (err) {
      if ((err as LonghaulError).code !== 'LH_ERR_TIMEOUT') throw err;
      const moved = bytesSoFar();
      if (Date.now() >= hardEndMs || moved === lastMoved) {
        throw new PeerError(
          'LH_ERR_TIMEOUT',
          `no ${what} from ${control.partner}${moved === lastMoved ? `, and no byte moved for ${Math.round(stepMs / 1000)} s` : ' in time'}`,
        );
      }
      lastMoved = moved;
    }
  }
}
