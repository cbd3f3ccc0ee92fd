/**
 * How many datagrams the OS dropped at a UDP socket because its receive buffer was full (issue 38,
 * receiver-limited UDP): Linux counts them per socket in the last column of /proc/net/udp and
 * /proc/net/udp6 ("drops", since the socket was made). Other OSes do not say to a program without
 * privileges (Windows has only a machine-wide "Receive Errors" counter), so there the answer is
 * null: unknown, never 0.
 */
import { readFileSync } from 'node:fs';

/** A socket as /proc/net/udp names it: its local port and, once connected, its peer's port (0 when not connected). */
interface UdpSocketKey {
  localPort: number;
  remotePort: number;
}

const TABLES = ['/proc/self/net/udp', '/proc/self/net/udp6'];

/**
 * The drops of the one socket named by `key`, from the tables `read` returns (Linux), or null when
 * the OS does not say, the table cannot be read, or no row (or more than one) matches: a count
 * is only given when it is this socket's.
 */
export function udpSocketDrops(key: UdpSocketKey, read: (path: string) => string | null = readTable, platform = process.platform): number | null {
  if (platform !== 'linux') return null;
  const rows: number[] = [];
  for (const path of TABLES) {
    const text = read(path);
    if (text === null) continue;
    for (const line of text.split('\n').slice(1)) {
      const drops = rowDrops(line, key);
      if (drops !== null) rows.push(drops);
    }
  }
  return rows.length === 1 ? (rows[0] ?? null) : null;
}

/** "  12: 0100007F:A8A1 0100007F:1389 01 ... 0000000000000000 17": the drops when the ports match `key`. */
function rowDrops(line: string, key: UdpSocketKey): number | null {
  const cols = line.trim().split(/\s+/);
  if (cols.length < 13) return null;
  const local = portOf(cols[1]);
  const remote = portOf(cols[2]);
  if (local !== key.localPort || remote !== key.remotePort) return null;
  const drops = Number(cols[cols.length - 1]);
  return Number.isSafeInteger(drops) && drops >= 0 ? drops : null;
}

/** "0100007F:A8A1" → 43169. */
function portOf(addr: string | undefined): number | null {
  const hex = addr?.split(':').pop();
  return hex && /^[0-9A-Fa-f]{4}$/.test(hex) ? parseInt(hex, 16) : null;
}

function readTable(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
