/**
 * Start what the forms say: one partner's run, a UDP ramp, or a group run when several partners are ticked.
 * The Test step's Start and History's confirmed "Run again" both come here, so a repeated run is started
 * exactly as one set up by hand.
 */
import { DEFAULT_PORT } from '../../electron/contract/api.js';
import { linkChoice, validateLinkForm } from './lib/link-form.js';
import { measurePathDefault, measurePathOn, validateTestForm } from './lib/test-form.js';
import { startRamp } from './ramp-control.js';
import { startGroupRun, startRun } from './run-control.js';
import { app, isGroupRun, tickedPartners } from './state.svelte.js';

/** The link the next run takes, in words (the Test step's and "Run again"'s summary line). */
export function linkText(): string {
  if (app.partnerKind === 'iperf3') return 'direct (the partner runs iperf3 -s: no pairing, no emulator)';
  if (app.link.kind === 'direct') return 'direct';
  const loss = app.link.loss.trim() !== '0%' ? `, modelled loss ${app.link.loss}` : '';
  return `through the local delay proxy (${app.link.preset ?? 'custom'}: ${app.link.rate}, RTT ${app.link.rtt}${loss})`;
}

/** Whether the run measures the path after it: the form's choice, else on where it is quick and there is a path. */
export function measurePathNow(): { on: boolean; why: string } {
  const emulatedRttS = app.link.kind === 'proxy' ? (validateLinkForm(app.link, null).rttMs ?? 0) / 1000 || null : null;
  const dflt = measurePathDefault({ loopback: app.loopback && app.link.kind === 'direct', emulatedRttS });
  return { on: app.form.protocol !== 'udp' && measurePathOn(app.form.measurePath, dflt), why: dflt.why };
}

/** Start the run the forms describe; the reason it cannot start (an invalid form), or null once it is under way. */
export async function startFromForms(): Promise<string | null> {
  const outcome = validateTestForm(app.form);
  if (!outcome.params) return 'the test settings are not valid: correct them on the Test step';
  if (isGroupRun()) return startGroupRun(outcome.params, outcome.distanceMeters, tickedPartners(app.system?.defaultPort ?? DEFAULT_PORT));
  const link = linkChoice(app.link, outcome.params.windowBytes);
  if (!link) return 'the link settings are not valid: go Back to the Link screen';
  if (app.form.protocol === 'udp' && app.form.ramp === 'on' && outcome.rampLossThreshold !== null)
    return startRamp(outcome.params, outcome.rampLossThreshold, link);
  return startRun(outcome.params, outcome.distanceMeters, link, outcome.pathRateBitsPerSec, measurePathNow().on);
}
