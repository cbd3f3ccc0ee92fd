/**
 * A UDP run through a session (docs/udp.md), the parts both ends share. The responder always
 * binds, the controller always sends first, as iperf3's UDP does: where the controller sends, the
 * responder's receivers bind and `params-ok` carries their ports; where the responder sends, its
 * senders bind, `params-ok` carries their ports, and the controller's receivers say hello to them
 * from their own sockets, so a controller behind a NAT or a stateful firewall is reached. When a
 * side's senders are done it sends `udp-end` with each stream's last sequence number; the other
 * side's receivers then count the tail and end at once, with nothing else to wait for (UDP has no FIN).
 */
import net from 'node:net';
import type { StreamEnd } from '../../protocol/messages.js';
import type { DataPlane } from '../data-plane/data-plane.js';
import { udpAim, udpLast, udpListen, udpServe } from '../data-plane/udp/udp-setup.js';
import type { PlannedStream } from '../../contract/stream-plan.js';
import { STOP_GRACE_MS } from './run-common.js';
import type { Side } from '../../contract/result.js';

/** The tag every datagram of this run carries (datagram.ts): the cookie's first 8 bytes. */
function udpTag(cookie: string): Buffer {
  return Buffer.from(cookie.slice(0, 16).padEnd(16, '0'), 'hex');
}

/** An address as a UDP socket takes it: an IPv4-mapped IPv6 address as plain IPv4. */
export function udpAddress(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return v4?.[1] ?? (net.isIP(address) ? address : '127.0.0.1');
}

function idsSentBy(plan: readonly PlannedStream[], side: Side): Set<number> {
  return new Set(plan.filter((p) => p.sender === side).map((p) => p.id));
}

/**
 * The responder's half, on `host` (where the controller reached it): receivers bind for the
 * streams the controller sends, senders bind for the ones it sends itself. Resolves with every
 * stream's port; `connected` settles once each of its senders heard its receiver's hello.
 */
export async function responderUdpSetup(
  plane: DataPlane,
  plan: readonly PlannedStream[],
  host: string,
  cookie: string,
): Promise<{ ports: [number, number][]; connected: Promise<void> }> {
  const tag = udpTag(cookie);
  const ports: [number, number][] = [];
  let connected: Promise<void> = Promise.resolve();
  if (idsSentBy(plan, 'controller').size) ports.push(...(await udpListen(plane, host, tag)));
  if (idsSentBy(plan, 'responder').size) {
    const served = await udpServe(plane, host, tag);
    ports.push(...served.ports);
    connected = served.connected;
  }
  return { ports: ports.sort((a, b) => a[0] - b[0]), connected };
}

/**
 * The controller's half: its senders aim at the responder's receivers, its receivers bind on
 * `localHost` and say hello to the responder's senders on `peerHost`. Resolves when its senders
 * are connected and its receivers bound (the responder's streams-ready says the hellos arrived).
 */
export async function controllerUdpSetup(
  plane: DataPlane,
  plan: readonly PlannedStream[],
  ports: readonly [number, number][],
  hosts: { local: string; peer: string },
  cookie: string,
): Promise<void> {
  const tag = udpTag(cookie);
  const mine = idsSentBy(plan, 'controller');
  const toMe = ports.filter(([id]) => !mine.has(id));
  const setups: Promise<unknown>[] = [];
  if (mine.size) setups.push(udpAim(plane, hosts.peer, new Map(ports.filter(([id]) => mine.has(id))), tag));
  if (toMe.length) setups.push(udpListen(plane, hosts.local, tag, { host: hosts.peer, ports: toMe }));
  await Promise.all(setups);
}

/** `udp-end`'s content from this side's sending ends: [stream id, last sequence number]. */
export function lastSeqOf(ends: readonly StreamEnd[]): [number, number][] {
  return ends.flatMap((e): [number, number][] => (e.role === 'send' && e.udp?.lastSeq !== undefined ? [[e.id, e.udp.lastSeq]] : []));
}

/** The peer's senders are done: this side's receivers count the tail and end (at once when nothing is missing). */
export function peerSendersDone(plane: DataPlane, lastSeq: readonly [number, number][]): void {
  udpLast(plane, new Map(lastSeq));
  plane.stop(STOP_GRACE_MS, undefined, 'receive');
}
