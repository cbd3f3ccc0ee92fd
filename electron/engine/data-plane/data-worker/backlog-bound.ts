/**
 * TCP_NOTSENT_LOWAT on a worker's sending streams (send-backlog.ts says why): one SendBacklog over the
 * streams' sockets, reading what each peer acknowledged from TCP_INFO. Null where the OS cannot bound
 * the backlog, or when the data path says unbounded (native/data-path.ts: the caller passes no addon then).
 */
import type { NativeApi } from '../../../native/native-api.js';
import { SendBacklog } from '../send-backlog.js';
import type { Clock, Stream } from './stream.js';

/** Bound the unsent backlog of every live sending stream in `streams` (each paced at `bitsPerSec`, or null); null when it cannot be. */
export function boundSendBacklogs(api: NativeApi | null, streams: Map<number, Stream>, clock: Clock, bitsPerSec: number | null): SendBacklog | null {
  const set = api?.setNotSentLowat ?? null;
  if (!api || !set) return null;
  const fds = new Map<number, number>();
  const backlog = new SendBacklog(
    set,
    (id) => {
      const s = streams.get(id);
      const fd = fds.get(id);
      if (!s || fd === undefined || s.finished || s.loop.tcpFd() === null) return null;
      try {
        return api.tcpInfo(fd).bytesAcked; // null where the OS does not say: the bound then stays as it is
      } catch {
        return null;
      }
    },
    true,
    () => clock.nowNs(),
  );
  for (const s of streams.values()) {
    const fd = s.finished ? null : s.loop.tcpFd();
    if (fd === null) continue;
    fds.set(s.id, fd);
    backlog.add(s.id, fd, bitsPerSec ? bitsPerSec / 8 : null);
  }
  return backlog;
}
