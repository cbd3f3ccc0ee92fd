/**
 * The one place Longhaul reads Node's private `_handle` (the libuv TCP handle
 * behind a net.Socket or net.Server). Node has no public API for three things
 * the engine needs, and each has been stable since Node 12:
 * - the OS descriptor (`_handle.fd`, Unix), which the addon needs for
 *   setsockopt and TCP_INFO on a socket Node owns;
 * - stopping libuv's reads outright (`_handle.readStop()`): `socket.pause()`
 *   may still read one chunk into this process, and a connection handed to a
 *   data worker must leave every payload byte in the kernel for the worker;
 * - the handle itself, for `child.send(msg, handle)` to a data worker.
 * If a Node release drops or renames it, these answer null / nothing and the
 * engine falls back as it does where the OS has no descriptor (Windows): the
 * run's report says so rather than failing.
 */
import type net from 'node:net';

/** The private part of a socket or server this file reads. */
interface PrivateHandle {
  fd?: number;
  readStop?: () => number;
}

function handleOf(s: net.Socket | net.Server): PrivateHandle | null | undefined {
  return (s as unknown as { _handle?: PrivateHandle | null })._handle;
}

/** The OS descriptor behind a Node socket or server (Unix); null where Node does not expose one (Windows). */
export function socketFd(s: net.Socket | net.Server): number | null {
  const fd = handleOf(s)?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/** Stop libuv reading so no payload is consumed by this process before a handover. */
export function stopReading(socket: net.Socket): void {
  handleOf(socket)?.readStop?.();
}

/** The raw TCP handle behind a socket, for `child.send(msg, handle)`; null or undefined once the socket is closed. */
export function rawHandle(socket: net.Socket): unknown {
  return handleOf(socket);
}
