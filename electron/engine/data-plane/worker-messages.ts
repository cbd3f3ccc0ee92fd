/**
 * Messages between an engine process and its data workers (child processes
 * over Node's IPC channel). Workers never see the control channel.
 */
import type { TcpSample } from '../../contract/result.js';
import type { AppliedWindow } from '../../native/advertised-window.js';
import type { MssSetup } from '../../native/mss-setup.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { LonghaulErrorCode } from '../../contract/error-codes.js';
import type { WorkerCpu } from './cpu-use.js';
import type { UdpCounts } from '../../contract/udp.js';

export type WorkerRole = 'send' | 'receive';

/** Where a reverse UDP run's serving senders are: their host and each stream's port ([id, port]). */
export interface UdpPeers {
  host: string;
  ports: [number, number][];
}

export interface WorkerInit {
  type: 'init';
  role: WorkerRole;
  bufferBytes: number;
  intervalMs: number;
  /** Per-stream time limit for senders; null when bounded by bytes. */
  seconds: number | null;
  windowBytes: number | null;
  /** How many streams this worker will carry (at most). */
  streams: number;
  /** Responder side: whether the engine set the listening socket's buffers to `windowBytes` (adopted sockets inherit them). */
  listenerWindow?: { applied: boolean; reason: string | null; window?: AppliedWindow | null };
  /** Requested MSS (TCP_MAXSEG before the handshake), bytes; null = the OS's own. */
  mssBytes: number | null;
  /** Responder side: how setting the listening socket's MSS went (accepted sockets inherit it); absent when none was requested. */
  listenerMss?: MssSetup | null;
  /** Pace each sending stream at this many payload bits/s (`--bitrate`, per stream); null = unpaced. */
  bitrateBitsPerSec?: number | null;
  /** `--congestion`: TCP_CONGESTION for every stream end; null = the system's. */
  congestionControl?: string | null;
  /** `-Z`: senders hand their bytes to the kernel with sendfile(2) where they can (contract/send-path.ts). */
  zeroCopy?: boolean;
  /** 'udp': datagrams of `bufferBytes` (udp-worker.ts); absent: TCP. */
  protocol?: 'udp';
  /** The other end as this worker's stream errors name it (DataPlaneOptions.partner): a worker never sees the control channel. */
  partner: string;
}

/*
 * `capBytes` (responder side): the most a stream may move whatever the peer does, its share of the
 * responder's --max-bytes; a receiver stops reading there (native: exactly; Node: within one read).
 */
export type ToWorker =
  | WorkerInit
  /** Controller side: dial the responder and send the data header. */
  | { type: 'connect'; id: number; host: string; port: number; headerB64: string; bytes: number | null }
  /** Responder side: a raw TCP handle accepted by the engine process comes with this message. */
  | { type: 'adopt'; id: number; bytes: number | null; capBytes?: number | null }
  /** Responder side, owned connections on Windows: a socket the engine accepted, duplicated for this worker (WSADuplicateSocketW). */
  | { type: 'adopt-owned'; id: number; bytes: number | null; capBytes?: number | null; socketB64: string }
  /** `startNs`: process.hrtime.bigint() of the run's start, as a decimal string (same clock in every local process). */
  | { type: 'start'; startNs: string }
  /**
   * Stop now: senders end their streams, receivers wait up to `graceMs` for the peer's FIN; a
   * receiver with a target ([id, bytes]) ends cleanly as soon as it has counted that many bytes.
   */
  | { type: 'stop'; graceMs: number; receiveTargets?: [number, number][] }
  /** The responder's limit ended the run: senders end their streams, receivers stop reading and close now, whatever the peer does. */
  | { type: 'cut' }
  /** Answer `drained` once every sending stream's bytes are acknowledged by the peer (TCP_INFO), or after `timeoutMs`. */
  | { type: 'drain'; timeoutMs: number }
  /**
   * UDP, receiving side: bind one socket on `host` for streams `ids` (`tagB64`: the run cookie's first 8 bytes);
   * answers `udp-port`. With `peers` it says hello to each stream's serving sender (udp-serve).
   */
  | { type: 'udp-listen'; ids: number[]; host: string; tagB64: string; peers?: UdpPeers }
  /**
   * UDP, sending side whose receiver dials (a reverse run: the receiver may be behind a NAT): stream `id`
   * binds on `host` and answers `udp-port` with `awaitingPeer`, then `ready` once the receiver's hello came.
   */
  | { type: 'udp-serve'; id: number; host: string; tagB64: string; bytes: number | null }
  /** UDP, sending side: stream `id` sends to host:port (`bytes`: its budget); answers `ready`. */
  | { type: 'udp-send'; id: number; host: string; port: number; tagB64: string; bytes: number | null }
  /** UDP, a stop's companion: each sending stream's last sequence number, so the receivers count the tail and end. */
  | { type: 'udp-last'; lastSeq: [number, number][] }
  /**
   * UDP with an iperf3 peer (udp/iperf3-connect.ts), stream `id` of this worker's `streamIds`: as its client,
   * `dial` the server's host:port; as its server, `join` the listener on host:port for the client at `peer`.
   * iperf3's header (`counters64`: --udp-counters-64bit); answers `ready` once the handshake is done.
   */
  | {
      type: 'udp-iperf3';
      how: 'dial' | 'join';
      id: number;
      streamIds: number[];
      host: string;
      port: number;
      peer?: UdpPeerAddress;
      counters64: boolean;
      timeoutMs: number;
      bytes: number | null;
    };

/** Where a datagram came from. */
export interface UdpPeerAddress {
  address: string;
  port: number;
}

export type FromWorker =
  | { type: 'ready'; id: number }
  | { type: 'stream-error'; id: number; code: LonghaulErrorCode; message: string }
  | {
      type: 'sample';
      index: number;
      t: number;
      final: boolean;
      streams: [number, number, number][];
      tcp?: [number, TcpSample][];
      udp?: [number, UdpCounts][];
      /** Index 1 of a receiving worker: its first byte was read this many seconds (< 0) before its clock started. */
      from?: number;
    }
  /** `awaitingPeer`: a serving sender's port; its `ready` follows the receiver's hello. */
  | { type: 'udp-port'; ids: number[]; port: number; awaitingPeer?: boolean }
  /** `cpu`: this worker's CPU from the start to now (absent from a worker that never started). */
  | { type: 'done'; streams: StreamEnd[]; cpu?: WorkerCpu }
  /**
   * A stream reached its cap (`capBytes` of adopt), which is below what it was planned to carry: it
   * stopped there. `bytes`: what it moved.
   */
  | { type: 'limit'; id: number; bytes: number; capBytes: number }
  /** `acked`: every sending stream's bytes were acknowledged; false after the timeout or where TCP_INFO cannot say. */
  | { type: 'drained'; acked: boolean };
