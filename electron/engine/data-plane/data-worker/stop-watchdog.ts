/**
 * After a stop: wait for the streams still moving bytes, cut the ones that
 * stay idle. A stream that still moves bytes after the stop is draining what
 * the kernels already hold (seconds on a slow, long link): wait for it. Only
 * a stream that stays idle for `graceMs` is cut, and its loss is reported.
 */
import type { LoopHost, Stream } from './stream.js';

/** How often a stopping worker checks its receivers against their byte targets, ms. */
const TARGET_CHECK_MS = 10;

/**
 * Watch `streams` until each has finished: complete once a receiver has its target
 * ([id, bytes] from the peer's counts), cut after `graceMs` without progress.
 */
export function watchStop(host: LoopHost, streams: readonly Stream[], graceMs: number, receiveTargets: Map<number, number> | null): void {
  const { clock } = host;
  const progress = new Map<number, { bytes: number; ns: bigint }>();
  const graceNs = BigInt(graceMs) * 1_000_000n;
  const watchdog = clock.setInterval(
    () => {
      const now = clock.nowNs();
      let open = 0;
      for (const s of streams) {
        if (s.finished) continue;
        const bytes = s.loop.counts().bytes;
        const target = receiveTargets?.get(s.id);
        if (target !== undefined && bytes >= target) {
          // Everything the peer sent is here: the stream is complete, whenever its FIN comes.
          host.finish(s);
          continue;
        }
        const p = progress.get(s.id);
        if (!p || p.bytes !== bytes) {
          progress.set(s.id, { bytes, ns: now });
          open++;
          continue;
        }
        if (now - p.ns < graceNs) {
          open++;
          continue;
        }
        s.fail(`no progress for ${graceMs} ms after the stop, and no end from ${host.init.partner}`);
        s.loop.cut();
        host.finish(s);
      }
      if (open === 0) clock.clearInterval(watchdog);
      host.maybeDone();
    },
    receiveTargets ? TARGET_CHECK_MS : Math.min(250, graceMs),
  );
  watchdog.unref();
}
