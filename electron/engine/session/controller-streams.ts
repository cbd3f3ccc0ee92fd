/**
 * The controller's data streams, opened once the responder said `params-ok`: TCP connections to the
 * control port or to the port the responder opened for this run's data (through the link emulator
 * when the run uses one), or a UDP run's sockets (udp-session.ts).
 */
import { encodeDataHeader } from '../../protocol/data-header.js';
import type { MessageOf } from '../../protocol/messages.js';
import { LonghaulError } from '../../util/errors.js';
import type { DataPlane } from '../data-plane/data-plane.js';
import type { RunLinkHook } from './run-handle.js';
import type { StreamsContext } from './session-channel.js';
import { controllerUdpSetup, lastSeqOf, udpAddress } from './udp-session.js';

/** Open this side's streams; rejects when one cannot be opened. */
export async function openControllerStreams(plane: DataPlane, ok: MessageOf<'params-ok'>, c: StreamsContext): Promise<void> {
  if (c.params.protocol === 'udp') {
    plane.on('sendersDone', (ends) => c.channel.send({ type: 'udp-end', lastSeq: lastSeqOf(ends) }));
    if (!ok.udpPorts) throw new Error(`${c.channel.partnerLabel} gave no UDP ports`);
    const hosts = { local: udpAddress(c.channel.localAddress), peer: udpAddress(c.channel.remoteAddress) };
    return controllerUdpSetup(plane, c.plan, await udpTargets(c.link, ok.udpPorts), hosts, c.cookie);
  }
  const target = await dataTarget(c, ok.dataPort ?? null);
  await plane.connectAll(target.host, target.port, (id) => encodeDataHeader(c.cookie, id));
}

/**
 * The responder's UDP ports as this side reaches them: through the link emulator, each its own
 * relay there (both ways: a receiver's hello goes out through it, the stream comes back through it).
 */
async function udpTargets(link: RunLinkHook | undefined, ports: readonly [number, number][]): Promise<[number, number][]> {
  if (!link) return [...ports];
  const forward = link.forwardUdpPort?.bind(link);
  if (!forward) throw new LonghaulError('LH_ERR_DATA_STREAM', 'this link emulator cannot relay UDP: the run would bypass the emulated link');
  return Promise.all(ports.map(async ([id, port]): Promise<[number, number]> => [id, await forward(port)]));
}

/**
 * The control port, or the port the responder opened for this run's data (params-ok.dataPort),
 * reached through the link emulator when the run uses one.
 */
async function dataTarget(c: Pick<StreamsContext, 'host' | 'port' | 'link' | 'channel'>, dataPort: number | null): Promise<{ host: string; port: number }> {
  if (dataPort === null) return { host: c.host, port: c.port };
  if (!c.link) return { host: c.host, port: dataPort };
  if (!c.link.forwardPort) {
    throw new LonghaulError(
      'LH_ERR_DATA_STREAM',
      `${c.channel.partnerLabel} takes data connections on port ${dataPort}, which this link emulator cannot forward`,
    );
  }
  return { host: c.host, port: await c.link.forwardPort(dataPort) };
}
