/**
 * `--udp-ramp` (contract/udp-ramp.ts): UDP runs at rising rates against one target (a paired peer,
 * a responder on this PC, an iperf3 server: sweep/run-target.ts), each step's finding read from its
 * result's own verdict figures (analysis/verdicts/udp.ts: the sender's shortfall, the loss), the
 * next rate from udp-ramp-plan.ts. One run at a time, a short pause between them so a queue on the
 * path drains; a stop ends the ramp after the step that is running, which is kept (partial).
 */
import type { LonghaulResult } from '../contract/result.js';
import type { LinkSettingsInfo } from '../contract/link-info.js';
import { lossShare, UDP_DEFAULT_BITS_PER_SEC } from '../contract/udp.js';
import {
  rampFindings,
  UDP_RAMP_MAX_STEPS,
  UDP_RAMP_PRECISION,
  UDP_RAMP_QUEUED_SHARE,
  type UdpRampOutcome,
  type UdpRampStep,
  type UdpRampStepOutcome,
} from '../contract/udp-ramp.js';
import { SHORT_SHARE } from '../analysis/verdicts/udp.js';
import type { RunParams } from '../protocol/run-params.js';
import type { RunTarget } from './run-target.js';
import { MAX_BITRATE_BITS_PER_SEC, MIN_BITRATE_BITS_PER_SEC } from '../contract/limits.js';
import { nextRampRate, type RampPlanOptions } from './udp-ramp-plan.js';

/** Between steps: a queue the last step filled drains (a second holds a 1.3 s satellite hop's worth at most of its rate). */
const PAUSE_MS = 1000;

export interface UdpRampOptions extends RampPlanOptions {
  lossThreshold: number;
  /** Each step through the link emulator with these settings (`loopback --udp-ramp --link …`); absent: direct. */
  link?: { preset: string | null; settings: LinkSettingsInfo };
}

/** The ramp's plan for every door: from `startBitsPerSec` (or UDP's 1 Mbit/s) up, until `lossThreshold`. */
export function rampPlan(lossThreshold: number, startBitsPerSec: number | null | undefined): UdpRampOptions {
  return {
    lossThreshold,
    startBitsPerSec: startBitsPerSec ?? UDP_DEFAULT_BITS_PER_SEC,
    minBitsPerSec: MIN_BITRATE_BITS_PER_SEC,
    maxBitsPerSec: MAX_BITRATE_BITS_PER_SEC,
    precision: UDP_RAMP_PRECISION,
    maxSteps: UDP_RAMP_MAX_STEPS,
  };
}

/** A step's figures from its result: the direction's total and its UDP finding. */
function rampStep(result: LonghaulResult, askedBitsPerSec: number, lossThreshold: number): UdpRampStep {
  const d = result.diagnosis?.[0];
  const total = d ? (result.directions[d.direction] ?? result.total) : result.total;
  const loss = total.udp ? lossShare(total.udp) : null;
  const short = d?.figures?.senderShortShare?.value ?? null;
  let outcome: UdpRampStepOutcome;
  if (!total.udp || total.bitsPerSecond === null) outcome = 'failed';
  else if (short !== null && short > SHORT_SHARE) outcome = 'sender-short';
  else if (loss !== null && loss > lossThreshold) outcome = d?.case === 'receiver-limited/udp-socket-full' ? 'receiver-dropped' : 'dropped';
  else if (result.partial) outcome = 'failed';
  else if (total.bitsPerSecond < askedBitsPerSec * result.params.streams * (1 - lossThreshold - UDP_RAMP_QUEUED_SHARE)) outcome = 'queued';
  else outcome = 'carried';
  return {
    askedBitsPerSec,
    receivedBitsPerSec: total.bitsPerSecond,
    lossShare: loss,
    jitterMs: total.udp?.jitterMs ?? null,
    senderShortShare: short,
    receiverDrops: total.udp?.receiverDrops ?? null,
    outcome,
    resultId: result.id,
  };
}

/** What a caller hears while the ramp runs: a step begins (its rate), a step ends (its finding and result). */
interface RampHooks {
  onStepStart?: (askedBitsPerSec: number, index: number) => void;
  onStep?: (step: UdpRampStep, result: LonghaulResult) => void;
}

/** Run the ramp. Resolves with every step and the finding. */
export async function runUdpRamp(target: RunTarget, base: RunParams, o: UdpRampOptions, signal: AbortSignal, hooks: RampHooks = {}): Promise<UdpRampOutcome> {
  const steps: UdpRampStep[] = [];
  const results: LonghaulResult[] = [];
  let end: UdpRampOutcome['end'];
  await target.open();
  try {
    for (;;) {
      if (signal.aborted) {
        end = 'stopped';
        break;
      }
      const next = nextRampRate(steps, o);
      if ('end' in next) {
        end = next.end;
        break;
      }
      if (steps.length) await pause(PAUSE_MS, signal);
      if (signal.aborted) {
        end = 'stopped';
        break;
      }
      hooks.onStepStart?.(next.rate, steps.length);
      const params: RunParams = { ...base, protocol: 'udp', bitrateBitsPerSec: next.rate };
      const link = o.link ? { link: o.link.preset, linkSettings: o.link.settings } : { link: null };
      const result = await target.run({ params, ...link, path: 'direct' }, signal, null);
      const step = rampStep(result, next.rate, o.lossThreshold);
      steps.push(step);
      results.push(result);
      hooks.onStep?.(step, result);
    }
  } finally {
    await target.close();
  }
  const { carried, firstDropped } = rampFindings(steps);
  return {
    schema: 'longhaul.udp-ramp/1',
    lossThreshold: o.lossThreshold,
    streams: base.streams,
    stepSeconds: base.seconds ?? 0,
    steps,
    carried,
    firstDropped,
    end,
    results,
  };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
