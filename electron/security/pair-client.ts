/**
 * `longhaul pair`: the controller's half of the pairing exchange (diagram in
 * pair-messages.ts). On success both ends remember each other.
 */
import os from 'node:os';
import { dial } from '../util/net.js';
import { encodeFrame } from '../protocol/framing.js';
import { LonghaulError, PeerError } from '../util/errors.js';
import { secureControl, type ControllerSecurity } from './controller-security.js';
import { readFirstFrame } from './first-frame.js';
import { parsePairReply } from './pair-messages.js';
import { EXPORTER_LABEL, normalizeCode, pairingProof, proofsEqual } from './pairing-code.js';
import type { PeerRecord } from './peer-store.js';

interface PairOptions {
  host: string;
  port: number;
  code: string;
  security: ControllerSecurity;
  timeoutMs?: number;
  /** Dial from this local address (a PC with several interfaces; tests use 127.0.0.2). */
  localAddress?: string;
}

/** Pair with the responder at host:port; resolves with the stored peer, rejects with a `LonghaulError`. */
export async function pairWith(o: PairOptions): Promise<PeerRecord> {
  const code = normalizeCode(o.code);
  const timeoutMs = o.timeoutMs ?? 15_000;
  const target = `${o.host}:${o.port}`;
  const raw = await dial(o.host, o.port, timeoutMs, o.localAddress);
  const { socket, fingerprint } = await secureControl(raw, target, o.security, 'pair', timeoutMs);
  try {
    const transcript = {
      exporter: socket.exportKeyingMaterial(32, EXPORTER_LABEL, Buffer.alloc(0)),
      controllerFingerprint: o.security.identity.fingerprint,
      responderFingerprint: fingerprint,
    };
    socket.write(
      encodeFrame({
        type: 'pair',
        protocol: 1,
        name: o.security.identity.name || os.hostname(),
        controllerFingerprint: transcript.controllerFingerprint,
        responderFingerprint: fingerprint,
        proof: await pairingProof(code, 'controller', transcript),
      }),
    );
    const first = await readFirstFrame(socket, timeoutMs);
    if (!first.ok) throw first.error ?? new PeerError('LH_ERR_PEER_GONE', `${target} closed the connection during pairing`);
    const reply = parsePairReply(first.message);
    if (reply.type === 'error') throw new PeerError(reply.code as LonghaulError['code'], reply.message);
    if (!proofsEqual(await pairingProof(code, 'responder', transcript), reply.proof)) {
      throw new PeerError(
        'LH_ERR_PAIRING_MITM',
        `${target} could not prove it knows the code: something between the PCs intercepts the connection; nothing was stored`,
      );
    }
    return o.security.peers.add(reply.name, fingerprint, socket.remoteAddress ?? o.host);
  } finally {
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  }
}
