/**
 * The proxy half of `npm run bench:link`: one TCP stream from a sender on
 * loopback, through the link proxy (window, slow start, modelled loss, rate,
 * delay each way), to a receiver that timestamps every read. Measured at the
 * receiver, by time, so the sender's local socket buffers (which a timed
 * longhaul run would still be draining after its end) do not matter.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { LinkProxy } from '../../electron/proxy/link-proxy.js';
import { parseLinkSpec } from '../../electron/proxy/link-settings.js';
import { steadySecondsOf, type LinkCell, type PathMeasurement } from './link-matrix.js';

export async function measureProxyPath(cell: LinkCell): Promise<PathMeasurement> {
  const arrivals: [number, number][] = [];
  let t0 = 0;
  const receiver = net.createServer((s) => {
    s.on('data', (d: Buffer) => arrivals.push([performance.now() - t0, d.length]));
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const proxy = new LinkProxy({
    target: { host: '127.0.0.1', port: (receiver.address() as net.AddressInfo).port },
    link: parseLinkSpec({
      delayMs: cell.rttMs / 2,
      rateBitsPerSec: cell.rateBitsPerSec,
      windowBytes: cell.windowBytes,
      slowstart: true,
      lossRatio: cell.lossRatio,
      jitterMs: 0,
      ...(cell.lossRatio > 0 && cell.lossPattern ? { lossPattern: cell.lossPattern } : {}),
    }),
  });
  const { port } = await proxy.listen();
  const payload = Buffer.alloc(128 * 1024, 0x5a);
  t0 = performance.now();
  const sender = net.connect({ host: '127.0.0.1', port });
  sender.on('error', () => undefined);
  const pump = (): void => {
    while (!sender.destroyed && sender.write(payload));
  };
  sender.on('connect', pump);
  sender.on('drain', pump);
  await new Promise((r) => setTimeout(r, cell.seconds * 1000));
  sender.destroy();
  const loss = proxy.lossStats().up;
  await proxy.close();
  receiver.close();

  const endMs = cell.seconds * 1000;
  const steadyMs = steadySecondsOf(cell) * 1000;
  const bytesBetween = (fromMs: number, toMs: number): number => arrivals.filter(([t]) => t > fromMs && t <= toMs).reduce((a, [, b]) => a + b, 0);
  return {
    steadyBitsPerSec: (bytesBetween(endMs - steadyMs, endMs) * 8 * 1000) / steadyMs,
    wholeRunBitsPerSec: (bytesBetween(0, endMs) * 8 * 1000) / endMs,
    ...(loss ? { note: `proxy: ${loss.segments} segments, ${loss.losses} lost, ${loss.halvings} halvings` } : {}),
  };
}
