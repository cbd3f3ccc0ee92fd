/**
 * Whether the peer of a run is this PC itself, from the address this side knows it by: a loopback
 * address, or one of this PC's own interface addresses (`longhaul run <my own LAN address>`). Both
 * ends then share this PC's cores and network stack, so the PC's CPU, not a network, bounds the run.
 * Another network namespace or container on the same machine has addresses of its own and counts as
 * another PC here: its network stack is its own, even though its cores are not.
 */
import net from 'node:net';
import os from 'node:os';

/** The host part of `host`, `host:port`, `[v6]:port` or a bare IPv6 address; IPv4-mapped IPv6 as plain IPv4. */
export function hostOf(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  let host = bracketed?.[1] ?? address;
  if (!bracketed && (address.match(/:/g) ?? []).length === 1) host = address.slice(0, address.lastIndexOf(':'));
  host = host.replace(/%.*$/, ''); // an IPv6 zone id
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(host) ? host.slice('::ffff:'.length) : host;
}

function isLoopback(ip: string): boolean {
  return net.isIPv4(ip) ? ip.startsWith('127.') : ip === '::1';
}

/**
 * true: the address is this PC's (loopback or one of its interfaces); false: an IP address that is not;
 * null: a host name other than this PC's own, which cannot be told without resolving it.
 */
export function samePcOf(address: string, interfaces = os.networkInterfaces(), hostname = os.hostname()): boolean | null {
  const host = hostOf(address.trim());
  if (!net.isIP(host)) {
    const name = host.toLowerCase();
    return name === 'localhost' || name === hostname.toLowerCase() ? true : null;
  }
  if (isLoopback(host)) return true;
  const mine = Object.values(interfaces).flatMap((list) => (list ?? []).map((i) => hostOf(i.address).toLowerCase()));
  return mine.includes(host.toLowerCase());
}
