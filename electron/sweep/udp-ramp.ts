/**
 * `--udp-ramp` (contract/udp-ramp.ts): UDP runs at rising rates against one target (a paired peer,
 * a responder on this PC, an iperf3 server: sweep/run-target.ts), each step's finding read from its
 * result's own verdict figures (analysis/verdicts/udp.ts: the sender's shortfall, the loss), the
 * next rate from udp-ramp-plan.ts. One run at a time, a short pause between them so a queue on the
 * path drains; a stop ends the ramp after the step that is running, which is kept (partial).
 */
import type { LinkSettingsInfo, LonghaulResult } from '../contract/result.js';
import { lossShare } from '../contract/udp.js';
import type { UdpRampOutcome, UdpRampStep, UdpRampStepOutcome } from '../contract/udp-ramp.js';
import { SHORT_SHARE } from '../analysis/verdicts/udp.js';
import type { RunParams } from '../engine/session/params.js';
import type { RunTarget } from './run-target.js';
import { nextRampRate, type RampPlanOptions } from './udp-ramp-plan.js';

/** Between steps: a queue the last step filled drains (a second holds a 1.3 s satellite hop's worth at most of its rate). */
const PAUSE_MS = 1000;

export interface UdpRampOptions extends RampPlanOptions {
  lossThreshold: number;
  /** Each step through the link emulator with these settings (`loopback --udp-ramp --link …`); absent: direct. */
  link?: { preset: string | null; settings: LinkSettingsInfo };
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
  else outcome = result.partial ? 'failed' : 'carried';
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

/** Run the ramp; `onStep` hears each step as it ends. Resolves with every step and the finding. */
export async function runUdpRamp(
  target: RunTarget,
  base: RunParams,
  o: UdpRampOptions,
  signal: AbortSignal,
  onStep?: (step: UdpRampStep, result: LonghaulResult) => void,
): Promise<UdpRampOutcome> {
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
      const params: RunParams = { ...base, protocol: 'udp', bitrateBitsPerSec: next.rate };
      const link = o.link ? { link: o.link.preset, linkSettings: o.link.settings } : { link: null };
      const result = await target.run({ params, ...link, path: 'direct' }, signal, null);
      const step = rampStep(result, next.rate, o.lossThreshold);
      steps.push(step);
      results.push(result);
      onStep?.(step, result);
    }
  } finally {
    await target.close();
  }
  const carried = steps
    .filter((s) => s.outcome === 'carried')
    .reduce<UdpRampStep | null>((a, s) => (!a || s.askedBitsPerSec > a.askedBitsPerSec ? s : a), null);
  const firstDropped = steps
    .filter((s) => s.outcome === 'dropped' && (!carried || s.askedBitsPerSec > carried.askedBitsPerSec))
    .reduce<UdpRampStep | null>((a, s) => (!a || s.askedBitsPerSec < a.askedBitsPerSec ? s : a), null);
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
