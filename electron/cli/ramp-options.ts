/**
 * `--udp-ramp [LOSS]` on `run` and `loopback` (contract/udp-ramp.ts): what it implies (-u, steps of
 * 3 s unless -t), its threshold, and what it cannot go with, each refused naming the flag.
 */
import { UDP_RAMP_DEFAULT_LOSS, UDP_RAMP_STEP_SECONDS } from '../contract/udp-ramp.js';
import { rampPlan, type UdpRampOptions } from '../sweep/udp-ramp.js';
import { ArgumentError } from '../util/errors.js';
import type { RunFlags } from './run-options.js';

/** `1%`, `0.5%` or `2` (percent): a share between 0 and 50 %. */
function lossThresholdOf(v: boolean | string): number {
  if (v === true) return UDP_RAMP_DEFAULT_LOSS;
  const m = /^(\d+(?:\.\d+)?)\s*%?$/.exec(String(v).trim());
  const percent = m ? Number(m[1]) : NaN;
  if (!(percent > 0 && percent <= 50))
    throw new ArgumentError(`--udp-ramp: "${String(v)}" is not a loss threshold; give a percentage above 0 and at most 50, e.g. 1%`, '--udp-ramp');
  return percent / 100;
}

/** The flags a ramp's steps run with: UDP, 3-s steps unless -t; refuses what a ramp cannot take. */
export function rampRunFlags(f: RunFlags, where: { hosts: number; rawChainLink: boolean }): RunFlags {
  const refuse = (flag: string, why: string): never => {
    throw new ArgumentError(`--udp-ramp with ${flag}: ${why}`, flag);
  };
  if (f.bidir) refuse('--bidir', "a ramp finds one direction's rate: run it forward and with -R");
  if (f.bytes !== undefined) refuse('-n', 'each step is a time (-t), so the steps compare');
  if (f.capacity) refuse('--capacity', "the path's capacity is measured with TCP: measure it in a TCP run");
  if (f.log !== undefined || f.csv !== undefined)
    refuse(f.log !== undefined ? '--log' : '--csv', "those are one run's reports; the ramp writes every step with --json FILE");
  if (where.hosts > 1) refuse('several responders', "a ramp finds one path's rate: run it against each");
  // Each step's link is rebuilt from its settings (sweep/run-target.ts): a raw stage chain has none.
  if (where.rawChainLink) refuse('--link-config', 'a ramp through the link emulator takes its settings (--link NAME or link flags), not a raw stage chain');
  return { ...f, udp: true, seconds: f.seconds ?? UDP_RAMP_STEP_SECONDS };
}

/** The ramp's plan from the flags: from -b (or UDP's 1 Mbit/s) up, until the threshold. */
export function rampOptions(f: RunFlags): UdpRampOptions {
  return rampPlan(lossThresholdOf(f.udpRamp ?? true), f.bitrate);
}
