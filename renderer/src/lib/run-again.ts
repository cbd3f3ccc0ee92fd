/**
 * "Run again" from History: a stored run's settings back into the wizard's
 * forms: the Test form from `result.params`, the Link form from `result.link`,
 * and the partner it ran against: `responder.address`, the control port the
 * controller dialled. Through the link emulator the controller dialled the
 * local proxy, so the partner is the link record's `target` (results older
 * than that field do not say it: null). Only a run against the app's own
 * responder (`ownResponder`) needs a new one: another app on this PC has a
 * loopback address too, and its control port is still where it was.
 */
import type { PartnerKind } from '../../../electron/contract/api.js';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import { formFromSettings, rateText, type LinkForm } from './link-form.js';
import { sizeText, type TestForm } from './test-form.js';

export interface RunAgainChoices {
  form: TestForm;
  /** The Link form, or null to keep the one on screen (a direct run says nothing about the numbers there). */
  link: LinkForm | null;
  /** host:port to run against, or null when the result does not say (an emulated run stored before the link record named its target). */
  partner: string | null;
  partnerKind: PartnerKind;
  /** The run was against this app's own responder ("Both on this PC"): a new one is needed, its port will differ. */
  loopback: boolean;
}

/** The forms and partner that repeat `r`; `current` supplies what a result does not keep (the distance for bit·m/s). */
export function runAgainChoices(r: LonghaulResult, current: TestForm): RunAgainChoices {
  const p = r.params;
  const form: TestForm = {
    protocol: p.protocol === 'udp' ? 'udp' : 'tcp',
    streams: String(p.streams),
    window: p.windowBytes === null ? '' : sizeText(p.windowBytes),
    mss: p.mssBytes === null || p.mssBytes === undefined ? '' : String(p.mssBytes),
    buffer: sizeText(p.bufferBytes),
    limitBy: p.bytes !== null ? 'bytes' : 'seconds',
    seconds: p.seconds !== null ? String(p.seconds) : current.seconds,
    bytes: p.bytes !== null ? sizeText(p.bytes) : current.bytes,
    direction: p.direction,
    interval: String(p.intervalSeconds),
    distance: current.distance,
    // A measured rate is the path's measurement, not something the user typed: run again measures again.
    pathRate: r.pathRate?.source === 'given' ? rateText(r.pathRate.bitsPerSecond) : '',
    bitrate: p.bitrateBitsPerSec ? rateText(p.bitrateBitsPerSec) : '',
    congestion: p.congestionControl ?? '',
    omit: p.omitSeconds ? String(p.omitSeconds) : '',
    zeroCopy: p.zeroCopy === true,
    measurePath: r.capacity !== undefined ? 'on' : current.measurePath,
    // A result is one run: running it again is one run (a ramp's steps are each such a result).
    ramp: 'off',
    rampLoss: current.rampLoss,
  };
  const link = r.link?.settings ? formFromSettings(r.link.settings, r.link.preset, 'proxy') : null;
  const partner = r.link ? (r.link.target ?? null) : r.responder.address;
  return {
    form,
    link,
    partner,
    partnerKind: /^iperf3\b/.test(r.responder.software) ? 'iperf3' : 'longhaul',
    loopback: r.ownResponder === true,
  };
}

/** The run to repeat in one line, as the confirmation before it starts says it: the test, then where it goes. */
export function runAgainText(c: RunAgainChoices): string {
  const f = c.form;
  const amount = f.limitBy === 'bytes' ? `${f.bytes} bytes` : `${f.seconds} s`;
  const streams = `${f.streams} stream${f.streams === '1' ? '' : 's'}`;
  const where = c.loopback ? 'both ends on this PC (a new local responder)' : (c.partner ?? 'the partner you choose');
  return `${f.protocol.toUpperCase()}, ${streams}, ${amount}, ${f.direction}, to ${where}`;
}
