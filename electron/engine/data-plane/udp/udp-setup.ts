/**
 * A UDP run's data plane set up (docs/udp.md): the receiving side's workers bind their sockets
 * and say their ports; the sending side's workers aim each stream at its port; at the end the
 * receivers hear each sender's last sequence number. Through DataPlane's generic worker calls.
 */
import { LonghaulError } from '../../../util/errors.js';
import type { DataPlane } from '../data-plane.js';
import type { ToWorker, UdpPeerAddress, UdpPeers } from '../worker-messages.js';

/**
 * Bind one socket per receiving worker on `host`; resolves with every receiving stream's port. `tag`: the
 * cookie's first 8 bytes. With `peers` (a reverse run's serving senders), each socket says hello to them.
 */
export async function udpListen(plane: DataPlane, host: string, tag: Buffer, peers?: UdpPeers): Promise<Map<number, number>> {
  const ports = new Map<number, number>();
  const ids: number[] = [];
  const onPort = (streamIds: number[], port: number): void => streamIds.forEach((id) => ports.set(id, port));
  plane.on('udpPort', onPort);
  try {
    const ready: Promise<void>[] = [];
    plane.tellRole('receive', (streamIds) => {
      ids.push(...streamIds);
      ready.push(plane.streamsReady(streamIds));
      const mine = peers ? { host: peers.host, ports: peers.ports.filter(([id]) => streamIds.includes(id)) } : null;
      return { type: 'udp-listen', ids: [...streamIds], host, tagB64: tag.toString('base64'), ...(mine ? { peers: mine } : {}) };
    });
    await Promise.all(ready);
  } finally {
    plane.off('udpPort', onPort);
  }
  return ports;
}

/** Aim each sending stream at its receiver's port; resolves when every one is connected. */
export async function udpAim(plane: DataPlane, host: string, ports: ReadonlyMap<number, number>, tag: Buffer): Promise<void> {
  const ready: Promise<void>[] = [];
  plane.tellRole('send', (streamIds) => {
    ready.push(plane.streamsReady(streamIds));
    return streamIds.map((id) => {
      const port = ports.get(id);
      if (port === undefined) throw new LonghaulError('LH_ERR_DATA_STREAM', `stream ${id}: the receiver gave no UDP port for it`);
      return { type: 'udp-send' as const, id, host, port, tagB64: tag.toString('base64'), bytes: plane.budgetBytes(id) };
    });
  });
  await Promise.all(ready);
}

/**
 * The sending side binds instead (a reverse run, so a receiver behind a NAT is reached as iperf3's
 * UDP "connect" does): resolves with each sending stream's port; `connected` settles once every one
 * heard its receiver's hello (udpListen with `peers`), rejects on a stream's error.
 */
export async function udpServe(plane: DataPlane, host: string, tag: Buffer): Promise<{ ports: Map<number, number>; connected: Promise<void> }> {
  const ports = new Map<number, number>();
  const ids: number[] = [];
  let connected: Promise<void> = Promise.resolve();
  await new Promise<void>((resolve, reject) => {
    const onPort = (streamIds: number[], port: number): void => {
      streamIds.forEach((id) => ports.set(id, port));
      if (ports.size < ids.length) return;
      plane.off('udpPort', onPort);
      resolve();
    };
    plane.on('udpPort', onPort);
    plane.tellRole('send', (streamIds) => {
      ids.push(...streamIds);
      return streamIds.map((id) => ({ type: 'udp-serve' as const, id, host, tagB64: tag.toString('base64'), bytes: plane.budgetBytes(id) }));
    });
    // Each stream's readiness (its hello) is awaited from now on; a stream's error before its port fails the setup.
    connected = plane.streamsReady(ids);
    connected.catch((err: unknown) => {
      plane.off('udpPort', onPort);
      reject(err as Error);
    });
    if (ids.length === 0) resolve();
  });
  return { ports, connected };
}

/** Each sending stream's last sequence number (from the sender's ends), so the receivers count the tail and end. */
export function udpLast(plane: DataPlane, lastSeq: ReadonlyMap<number, number>): void {
  plane.tellRole('receive', (streamIds) => {
    const mine = streamIds.flatMap((id): [number, number][] => {
      const seq = lastSeq.get(id);
      return seq === undefined ? [] : [[id, seq]];
    });
    return mine.length ? { type: 'udp-last', lastSeq: mine } : null;
  });
}

/** One iperf3 UDP stream's handshake, told to the worker that holds stream `id` (either role); resolves once it is done. */
function iperf3Stream(plane: DataPlane, id: number, msg: Omit<Extract<ToWorker, { type: 'udp-iperf3' }>, 'id' | 'streamIds' | 'bytes'>): Promise<void> {
  const ready = plane.streamsReady([id]);
  for (const role of ['send', 'receive'] as const) {
    plane.tellRole(role, (streamIds) => (streamIds.includes(id) ? { ...msg, id, streamIds: [...streamIds], bytes: plane.budgetBytes(id) } : null));
  }
  return ready;
}

/**
 * As an iperf3 client: each stream, in `ids`' order, dials the server's host:port and makes iperf3's
 * UDP handshake, one after the other (the server numbers its streams in the order they come).
 */
export async function udpIperf3Dial(
  plane: DataPlane,
  ids: readonly number[],
  host: string,
  port: number,
  counters64: boolean,
  timeoutMs: number,
): Promise<void> {
  for (const id of ids) await iperf3Stream(plane, id, { type: 'udp-iperf3', how: 'dial', host, port, counters64, timeoutMs });
}

/** As an iperf3 server: stream `id` joins the listener on host:port for the client whose connect came from `peer`. */
export function udpIperf3Join(plane: DataPlane, id: number, host: string, port: number, peer: UdpPeerAddress, counters64: boolean): Promise<void> {
  return iperf3Stream(plane, id, { type: 'udp-iperf3', how: 'join', host, port, peer, counters64, timeoutMs: 0 });
}
