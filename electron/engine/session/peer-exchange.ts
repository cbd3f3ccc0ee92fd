/**
 * What both ends of a session say and hear the same way: the hello and its version check, the
 * samples each side forwards to the other, and the end-of-run results each sends and takes.
 */
import os from 'node:os';
import type { Side } from '../../contract/result.js';
import { PROTOCOL_VERSION, type MessageOf, type StreamEnd } from '../../protocol/messages.js';
import type { CpuUse } from '../../contract/cpu-info.js';
import { LonghaulError } from '../../util/errors.js';
import { SOFTWARE } from '../../util/version.js';
import type { SideSample } from '../data-plane/data-plane.js';
import { CAPABILITIES, UDP_CAPABILITY, ZERO_COPY_CAPABILITY, localOs, sampleMessage } from './run-common.js';
import type { RunParams } from '../../protocol/run-params.js';
import type { LocalSettings } from './local-settings.js';
import { settingsForPartner } from './partner-settings.js';
import type { RunRecorder } from './run-recorder.js';
import type { SessionChannel, SessionPlane } from './session-channel.js';

/** The other end of a session, as its hello introduced it. */
export type PartnerHello = MessageOf<'hello'>;

/** This end's hello. */
export function ownHello(): PartnerHello {
  return { type: 'hello', protocol: PROTOCOL_VERSION, software: SOFTWARE, hostname: os.hostname(), capabilities: CAPABILITIES, os: localOs() };
}

/** Why this end cannot run with the partner that sent `m` (null: it can), naming it by `label`; `udp`: the run tests UDP. */
export function helloProblem(m: PartnerHello, self: Side, udp: boolean, label: string): LonghaulError | null {
  if (m.protocol !== PROTOCOL_VERSION) {
    return new LonghaulError(
      'LH_ERR_PROTOCOL_VERSION',
      `${label} speaks protocol ${m.protocol}; this ${self} speaks ${PROTOCOL_VERSION}: install the same Longhaul version on both PCs`,
    );
  }
  if (udp && !m.capabilities.includes(UDP_CAPABILITY)) {
    return new LonghaulError('LH_ERR_PROTOCOL_VERSION', `the Longhaul of ${label} does not test UDP: install the same Longhaul version on both PCs`);
  }
  return null;
}

/**
 * The run's params as the partner that sent `m` can take them: one that does not announce -Z
 * (ZERO_COPY_CAPABILITY) gets them without `zeroCopy`, which its strict schema would refuse; its
 * senders copy, and the result says so (tcp-results.ts).
 */
export function paramsForPartner(params: RunParams, m: PartnerHello): RunParams {
  if (!params.zeroCopy || m.capabilities.includes(ZERO_COPY_CAPABILITY)) return params;
  const older = { ...params };
  delete older.zeroCopy;
  return older;
}

/**
 * Each of this side's samples: recorded, sent to the partner, shown. `also` sees it first (the
 * responder's limits count bytes from it).
 */
export function forwardSamples(
  plane: SessionPlane,
  side: Side,
  to: { recorder: () => RunRecorder; channel: SessionChannel; show: (s: SideSample, side: Side) => void; also?: (s: SideSample) => void },
): void {
  plane.on('sample', (s) => {
    to.also?.(s);
    to.recorder().addSample(side, s);
    to.channel.send(sampleMessage(s));
    to.show(s, side);
  });
}

/** This side's end-of-run report to its partner: its own ends, and why the run is partial if it is. */
export function resultsMessage(
  side: Side,
  ends: StreamEnd[],
  reasonSoFar: string | null,
  partner: PartnerHello,
  settings: LocalSettings | null,
  cpu: CpuUse | null,
): MessageOf<'results'> {
  const failed = ends.find((e) => e.error);
  const reason = reasonSoFar ?? (failed?.error ? `stream error on the ${side}: ${failed.error.message}` : null);
  return { type: 'results', streams: ends, partial: reason !== null, reason, ...settingsForPartner(partner.capabilities, settings), ...(cpu ? { cpu } : {}) };
}

/** The partner's end-of-run report, into this side's record; `prefix` names it in a partial reason. */
export function takeResults(recorder: RunRecorder, partnerSide: Side, m: MessageOf<'results'>, prefix: string): void {
  recorder.setEnds(partnerSide, m.streams);
  recorder.setPeerSettings(partnerSide, m.settings);
  recorder.setCpu(partnerSide, m.cpu);
  if (m.partial && m.reason) recorder.markPartial(`${prefix}${m.reason}`);
}
