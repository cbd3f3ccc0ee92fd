/**
 * The Test screen's form: text fields as typed, turned into run parameters
 * with a message per bad field (shown inline, next to the field). The limits
 * are the engine's (electron/contract/limits.ts); the host validates again.
 */
import type { Direction } from '../../../electron/contract/result.js';
import type { UiRunParams } from '../../../electron/contract/api.js';
import * as L from '../../../electron/contract/limits.js';
import { groupDigits, parseDistance, parseDuration, parseRate, parseSize, type Parsed } from '../../../electron/contract/units.js';
import {
  UDP_DEFAULT_BITS_PER_SEC,
  UDP_DEFAULT_DATAGRAM_BYTES,
  UDP_MAX_DATAGRAM_BYTES,
  UDP_MIN_DATAGRAM_BYTES,
  UDP_REFUSALS,
} from '../../../electron/contract/udp.js';
import { UDP_RAMP_STEP_SECONDS } from '../../../electron/contract/udp-ramp.js';

export const LIMITS = {
  maxStreams: L.MAX_STREAMS,
  maxBufferBytes: L.MAX_BUFFER_BYTES,
  maxWindowBytes: L.MAX_WINDOW_BYTES,
  maxSeconds: L.MAX_SECONDS,
  minInterval: L.MIN_INTERVAL_SECONDS,
  maxInterval: L.MAX_INTERVAL_SECONDS,
  minMssBytes: L.MIN_MSS_BYTES,
  maxMssBytes: L.MAX_MSS_BYTES,
};

export interface TestForm {
  /** TCP streams, or UDP datagrams at a set rate (the CLI's -u). */
  protocol: 'tcp' | 'udp';
  streams: string;
  /** '' = OS default. */
  window: string;
  /** '' = the OS's own MSS. */
  mss: string;
  buffer: string;
  limitBy: 'seconds' | 'bytes';
  seconds: string;
  bytes: string;
  direction: Direction;
  interval: string;
  /** '' = not given. */
  distance: string;
  /** The path's rate as the user knows it (the CLI's --path-rate); '' = not given. */
  pathRate: string;
  /** Pace each sending stream at this rate (the CLI's --bitrate, per stream); '' = unpaced. */
  bitrate: string;
  /** Congestion control for every stream end (the CLI's -C, Linux TCP_CONGESTION); '' = the system's. */
  congestion: string;
  /** Seconds at the start left out of the totals and the verdict (the CLI's -O, --omit); '' or 0 = none. */
  omit: string;
  /** Zero-copy sender (the CLI's -Z): every sending end uses sendfile(2) where its OS allows. TCP only. */
  zeroCopy: boolean;
  /** Measure the path after the run (the CLI's --capacity): `auto` follows measurePathDefault(), on/off is the user's. */
  measurePath: 'auto' | 'on' | 'off';
  /** UDP only: find the rate the path carries by steps (the CLI's --udp-ramp) instead of one run at the Bitrate. */
  ramp: 'off' | 'on';
  /** The ramp's loss threshold per step, e.g. '1%' (the CLI's --udp-ramp LOSS). */
  rampLoss: string;
}

export const DEFAULT_FORM: TestForm = {
  protocol: 'tcp',
  streams: '1',
  window: '',
  mss: '',
  buffer: '128K',
  limitBy: 'seconds',
  seconds: '10',
  bytes: '100M',
  direction: 'forward',
  interval: '1',
  distance: '',
  pathRate: '',
  bitrate: '',
  congestion: '',
  omit: '',
  zeroCopy: false,
  measurePath: 'auto',
  ramp: 'off',
  rampLoss: '1%',
};

/** Seconds the path's measurement takes at an RTT: connecting, slow start and the measured span, about 20 RTTs, plus set-up. */
function measurePathSeconds(rttS: number): number {
  return 2 + 20 * rttS;
}

/** Where "Measure the path" is on by default, and why: a real path whose measurement takes under 15 s. */
export function measurePathDefault(c: { loopback: boolean; emulatedRttS: number | null }): { on: boolean; why: string } {
  if (c.loopback) return { on: false, why: "both ends are on this PC: there is no path to measure, only this PC's CPU" };
  if (c.emulatedRttS !== null && measurePathSeconds(c.emulatedRttS) > 15)
    return { on: false, why: `on this ${c.emulatedRttS} s round trip it takes about ${Math.round(measurePathSeconds(c.emulatedRttS))} s` };
  return { on: true, why: 'a few seconds after the test' };
}

/** Whether the run measures the path: the user's choice, else the default. */
export function measurePathOn(choice: TestForm['measurePath'], dflt: { on: boolean }): boolean {
  return choice === 'auto' ? dflt.on : choice === 'on';
}

type FormErrors = Partial<Record<keyof TestForm, string>>;

/**
 * The form switched to `protocol`: the fields whose defaults differ follow (the buffer is a datagram of
 * 1460 B for UDP, 128K for TCP; UDP's rate is 1 Mbit/s per stream when none is typed, as iperf3's), where
 * they still hold the other protocol's default; what the user typed stays.
 */
export function switchProtocol(f: TestForm, protocol: TestForm['protocol']): TestForm {
  const udp = protocol === 'udp';
  const buffer =
    udp && f.buffer === DEFAULT_FORM.buffer
      ? String(UDP_DEFAULT_DATAGRAM_BYTES)
      : !udp && f.buffer === String(UDP_DEFAULT_DATAGRAM_BYTES)
        ? DEFAULT_FORM.buffer
        : f.buffer;
  const bitrate = udp && f.bitrate.trim() === '' ? '1M' : !udp && f.bitrate === '1M' ? '' : f.bitrate;
  return { ...f, protocol, buffer, bitrate };
}

/** Bytes as a user would type them: 65536 → "64K", 20971520 → "20M", 1000 → "1000". */
export function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['G', 1024 ** 3],
    ['M', 1024 ** 2],
    ['K', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

/**
 * The window per stream end as typed, one rule for the Link and Test screens: '' is the OS default (null);
 * a number out of range says the range, with the largest window by name (never a bare "too large").
 */
export function parseWindow(text: string): Parsed | { ok: true; value: null } {
  if (text.trim() === '') return { ok: true, value: null };
  const w = parseSize(text);
  const range = `between 1 byte and ${sizeText(LIMITS.maxWindowBytes)} (${groupDigits(LIMITS.maxWindowBytes)} bytes)`;
  if (!w.ok) return w.error === 'too large' ? { ok: false, error: range } : w;
  return w.value < 1 || w.value > LIMITS.maxWindowBytes ? { ok: false, error: range } : w;
}

interface FormOutcome {
  params: UiRunParams | null;
  /** The ramp's loss threshold (share) when the ramp is asked for (UDP, ticked); null: one run. */
  rampLossThreshold: number | null;
  distanceMeters: number | null;
  /** bit/s, or null when not given. */
  pathRateBitsPerSec: number | null;
  errors: FormErrors;
}

/**
 * The ramp (UDP, ticked): its loss threshold, or null for one run; what a ramp cannot take is said on
 * the field that holds it (the CLI refuses the same: electron/cli/ramp-options.ts).
 */
function rampOf(f: TestForm, errors: FormErrors): number | null {
  if (f.protocol !== 'udp' || f.ramp !== 'on') return null;
  if (f.direction === 'bidir') errors.direction = "a ramp finds one direction's rate: pick one direction (run it again the other way)";
  if (f.limitBy !== 'seconds') errors.bytes = 'each step of a ramp is a duration, so the steps compare: stop after a duration';
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(f.rampLoss);
  const percent = m ? Number(m[1]) : NaN;
  if (percent > 0 && percent <= 50) return percent / 100;
  errors.rampLoss = 'a percentage above 0 and at most 50, e.g. 1%';
  return null;
}

/**
 * The ramp ticked or unticked: a Duration still at the single run's default becomes the ramp's step
 * (3 s, as `--udp-ramp` without -t) and back; what the user typed stays.
 */
export function switchRamp(f: TestForm, on: boolean): TestForm {
  const step = String(UDP_RAMP_STEP_SECONDS);
  const seconds = on && f.seconds === DEFAULT_FORM.seconds ? step : !on && f.seconds === step ? DEFAULT_FORM.seconds : f.seconds;
  return { ...f, ramp: on ? 'on' : 'off', seconds };
}

/** The Bitrate field: '' is unpaced (null); otherwise a rate from 1 kbit/s to 1 Tbit/s, or its message in `errors.bitrate`. */
function parseBitrate(text: string, errors: FormErrors): number | null {
  if (text.trim() === '') return null;
  const r = parseRate(text);
  const range = `from ${L.MIN_BITRATE_BITS_PER_SEC / 1e3} kbit/s to ${L.MAX_BITRATE_BITS_PER_SEC / 1e12} Tbit/s per stream, e.g. 5M`;
  if (!r.ok) errors.bitrate = r.error === 'too large' ? range : r.error;
  else if (!(r.value >= L.MIN_BITRATE_BITS_PER_SEC && r.value <= L.MAX_BITRATE_BITS_PER_SEC)) errors.bitrate = range;
  else return r.value;
  return null;
}

export function validateTestForm(f: TestForm): FormOutcome {
  const errors: FormErrors = {};
  const streams = /^\s*\d+\s*$/.test(f.streams) ? Number(f.streams) : NaN;
  if (!(streams >= 1 && streams <= LIMITS.maxStreams)) errors.streams = `a whole number from 1 to ${LIMITS.maxStreams}`;

  let windowBytes: number | null = null;
  const w = parseWindow(f.window);
  if (!w.ok) errors.window = w.error;
  else windowBytes = w.value;
  let mssBytes: number | null = null;
  if (f.mss.trim() !== '') {
    const m = /^\s*\d+\s*$/.test(f.mss) ? Number(f.mss) : NaN;
    if (!(m >= LIMITS.minMssBytes && m <= LIMITS.maxMssBytes)) errors.mss = `a whole number of bytes from ${LIMITS.minMssBytes} to ${LIMITS.maxMssBytes}`;
    else mssBytes = m;
  }
  const udp = f.protocol === 'udp';
  const b = parseSize(f.buffer);
  if (!b.ok) errors.buffer = b.error;
  else if (udp && (b.value < UDP_MIN_DATAGRAM_BYTES || b.value > UDP_MAX_DATAGRAM_BYTES))
    errors.buffer = `a datagram of ${UDP_MIN_DATAGRAM_BYTES} to ${groupDigits(UDP_MAX_DATAGRAM_BYTES)} bytes`;
  else if (b.value < 1 || b.value > LIMITS.maxBufferBytes) errors.buffer = 'between 1 byte and 16M';
  if (udp && f.mss.trim() !== '') errors.mss = `${UDP_REFUSALS.mss}: leave it empty`;
  if (udp && f.congestion.trim() !== '') errors.congestion = `${UDP_REFUSALS.congestion}: leave it empty`;

  let seconds: number | null = null;
  let bytes: number | null = null;
  if (f.limitBy === 'seconds') {
    const s = parseDuration(f.seconds);
    if (!s.ok) errors.seconds = s.error;
    else if (!(s.value >= 0.1 && s.value <= LIMITS.maxSeconds)) errors.seconds = 'between 0.1 s and 24 h';
    else seconds = s.value;
  } else {
    const n = parseSize(f.bytes);
    if (!n.ok) errors.bytes = n.error;
    else if (n.value < 1) errors.bytes = 'at least 1 byte';
    else bytes = n.value;
  }
  const i = parseDuration(f.interval);
  if (!i.ok) errors.interval = i.error;
  else if (!(i.value >= LIMITS.minInterval && i.value <= LIMITS.maxInterval)) errors.interval = 'between 0.1 s and 60 s';

  let distanceMeters: number | null = null;
  if (f.distance.trim() !== '') {
    const d = parseDistance(f.distance);
    if (!d.ok) errors.distance = d.error;
    else if (d.value <= 0) errors.distance = 'more than 0 m';
    else distanceMeters = d.value;
  }
  let pathRateBitsPerSec: number | null = null;
  if (f.pathRate.trim() !== '') {
    const r = parseRate(f.pathRate);
    if (!r.ok) errors.pathRate = r.error;
    else if (!(r.value > 0 && r.value <= L.MAX_PATH_RATE_BITS_PER_SEC)) errors.pathRate = `above 0 and at most ${L.MAX_PATH_RATE_BITS_PER_SEC / 1e9} Gbit/s`;
    else pathRateBitsPerSec = r.value;
  }
  const bitrateBitsPerSec = parseBitrate(f.bitrate, errors) ?? (udp && !errors.bitrate ? UDP_DEFAULT_BITS_PER_SEC : null);
  const congestionControl = f.congestion.trim() === '' ? null : f.congestion.trim();
  if (congestionControl !== null && !/^[a-z0-9_-]{1,15}$/i.test(congestionControl))
    errors.congestion = 'a name such as bbr, cubic or reno (letters, digits, - and _, at most 15)';
  let omitSeconds: number | null = null;
  if (f.omit.trim() !== '') {
    const o = parseDuration(f.omit);
    if (!o.ok) errors.omit = o.error;
    else if (o.value < 0 || (seconds !== null && o.value >= seconds)) errors.omit = 'from 0 s to less than the test length';
    else if (o.value > 0) omitSeconds = o.value;
  }
  const rampLossThreshold = rampOf(f, errors);
  if (Object.keys(errors).length > 0) return { params: null, rampLossThreshold: null, distanceMeters, pathRateBitsPerSec, errors };
  return {
    rampLossThreshold,
    params: {
      streams,
      bufferBytes: b.ok ? b.value : 0,
      windowBytes,
      bytes,
      seconds,
      direction: f.direction,
      intervalSeconds: i.ok ? i.value : 1,
      ...(mssBytes !== null ? { mssBytes } : {}),
      ...(bitrateBitsPerSec !== null ? { bitrateBitsPerSec } : {}),
      ...(congestionControl !== null ? { congestionControl } : {}),
      ...(omitSeconds !== null ? { omitSeconds } : {}),
      ...(f.zeroCopy && !udp ? { zeroCopy: true as const } : {}),
      ...(udp ? { protocol: 'udp' as const } : {}),
    },
    distanceMeters,
    pathRateBitsPerSec,
    errors,
  };
}
