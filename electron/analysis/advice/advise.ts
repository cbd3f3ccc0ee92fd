/**
 * Advice per verdict, per OS, per end: which PC must change which setting, to
 * what, and where, for the limit a run met. Pure over the result and this PC's
 * readable settings (local-settings.ts): the same result always gives the same
 * advice. Every verdict gets advice: OS settings where a setting moves the limit
 * (window, send buffer, window scaling, MSS), otherwise what does (verdict-lines.ts:
 * the path, its queue, loss, the run's length, a CPU, the receiving application). Runs through the link
 * emulator (emulated.ts) name the emulator or the emulated link where one of
 * them held the run, and the ends' OS settings where the window did.
 */
import { udpAdvice } from './udp.js';
import type { Advice, AdviceTopic } from '../../contract/advice.js';
import { bitrateText } from '../../contract/pacing-info.js';
import { bdpBytes, MAX_SCALED_WINDOW, MAX_UNSCALED_WINDOW, rateContradicted, splitWindow, wholeBytesUp } from '../../contract/path-math.js';
import type { Diagnosis, LonghaulResult, Side } from '../../contract/result.js';
import { DEFAULT_MSS_BYTES } from '../../contract/wire.js';
import { groupDigits } from '../../contract/units.js';
import type { LocalSettings } from './settings-keys.js';
import { emulatedLines, REAL_PATH } from './emulated.js';
import { osFamily } from './os-family.js';
import { neededBytes, valueFor, type AdviceLine, type AdviceNeed } from './os-rules.js';
import { verdictLines } from './verdict-lines.js';

type OsTopic = 'receive-window' | 'send-buffer' | 'window-scaling' | 'mss';

/** A send-buffer verdict needs this share of busy time limited by it (as diagnosis.ts). */
const WINDOW_SHARE = 0.5;

/** Which OS topics a diagnosis calls for, and on which end. */
function topicsFor(d: Diagnosis, r: LonghaulResult, need: AdviceNeed): [OsTopic, 'sender' | 'receiver'][] {
  const n = d.numbers;
  if (d.verdict === 'mss-limited')
    return [
      ['mss', 'sender'],
      ['mss', 'receiver'],
    ];
  if (d.verdict === 'send-buffer-limited') return [['send-buffer', 'sender']];
  if (d.verdict !== 'window-limited') return [];
  // Results diagnosed before send-buffer-limited existed said window-limited with the send buffer's timer share.
  const sndbuf = (n.sndbufLimitedShare ?? 0) >= WINDOW_SHARE && (n.sndbufLimitedShare ?? 0) > (n.rwndLimitedShare ?? 0);
  const out: [OsTopic, 'sender' | 'receiver'][] = [sndbuf ? ['send-buffer', 'sender'] : ['receive-window', 'receiver']];
  // Scale 0 is only a fault when the window needs scaling and the run did not itself ask for a
  // window small enough that the OS rightly chose scale 0 for it.
  const asked = r.params.windowBytes;
  const needsScaling = need.windowBytes === null || need.windowBytes > MAX_UNSCALED_WINDOW;
  if (n.windowScale === 0 && needsScaling && !(asked !== null && asked <= MAX_UNSCALED_WINDOW)) {
    out.push(['window-scaling', 'receiver'], ['window-scaling', 'sender']);
  }
  return out;
}

function sideOf(direction: Diagnosis['direction'], end: 'sender' | 'receiver'): Side {
  const sender: Side = direction === 'controllerToResponder' ? 'controller' : 'responder';
  return end === 'sender' ? sender : sender === 'controller' ? 'responder' : 'controller';
}

/** The window per stream that fills the path: the given path rate × the path's RTT, over the streams. */
function neededWindowBytes(rateBitsPerSec: number, rttSeconds: number, streams: number): number;
function neededWindowBytes(rateBitsPerSec: number | null, rttSeconds: number, streams: number): number | null;
function neededWindowBytes(rateBitsPerSec: number | null, rttSeconds: number, streams: number): number | null {
  return rateBitsPerSec === null ? null : wholeBytesUp(bdpBytes(rateBitsPerSec, rttSeconds) / Math.max(1, streams));
}

/** Longhaul's own --window overrides every OS setting: when it was the limit, say so first. */
function requestLine(asked: number, need: AdviceNeed): AdviceLine {
  return {
    setting: "Longhaul's --window (set on every stream end's socket, which turns the OS's autotuning off for it)",
    currentValue: `${groupDigits(asked)} bytes`,
    neededValue:
      need.windowBytes !== null
        ? need.windowBytes > MAX_SCALED_WINDOW
          ? neededBytes(need) + ' per stream'
          : `at least ${groupDigits(need.windowBytes)} bytes per stream`
        : `unknown until the path's rate is known: ${need.bytesPerMbit.toLocaleString('en-US')} bytes per Mbit/s wanted`,
    runFlags:
      need.windowBytes === null
        ? undefined
        : need.windowBytes > MAX_SCALED_WINDOW
          ? `--window ${valueFor(need)} -P ${splitWindow(need.windowBytes, 1).streams}`
          : `--window ${valueFor(need)}`,
    how: `longhaul run <partner> --window ${need.windowBytes !== null ? valueFor(need) : '<bytes>'}${need.windowBytes !== null && need.windowBytes > MAX_SCALED_WINDOW ? ` -P ${splitWindow(need.windowBytes, 1).streams} (per stream today)` : ''}, or leave --window out so each OS autotunes within the settings below`,
    why: `This run asked for ${groupDigits(asked)} bytes: that, not the OS, held the window. Other applications get what the OS settings below allow.`,
    control: {
      kind: 'window',
      bytes: need.windowBytes === null ? null : need.windowBytes > MAX_SCALED_WINDOW ? splitWindow(need.windowBytes, 1).windowBytes : need.windowBytes,
      streams: need.windowBytes !== null && need.windowBytes > MAX_SCALED_WINDOW ? splitWindow(need.windowBytes, 1).streams : null,
    },
  };
}

/** The sender was paced by --bitrate: that option, not a TCP or OS setting, set the rate. */
function pacedLine(bitsPerSec: number): AdviceLine {
  return {
    setting: "Longhaul's --bitrate (the senders' pacing, per stream)",
    currentValue: bitrateText(bitsPerSec),
    neededValue: 'no pacing (leave --bitrate out) to measure what the path and the PCs carry, or a higher rate',
    how: 'longhaul run <partner> without -b/--bitrate',
    runFlags: '',
    why: 'This run asked its senders to go no faster: no window, buffer or OS setting would change what it carried.',
    control: { kind: 'bitrate' },
  };
}

function applicationLine(r: LonghaulResult): AdviceLine {
  return {
    setting: 'the sending application: how much it writes per call and how soon it writes again (Longhaul: --buffer)',
    currentValue: `${groupDigits(r.params.bufferBytes)} bytes per write`,
    neededValue: 'writes that keep the socket full: larger writes, or whatever delays the sender (CPU, disk, a rate limit) removed',
    how: 'longhaul run <partner> --buffer 1M; for other applications their own buffer or block-size option',
    runFlags: '--buffer 1M',
    why: 'The sender had nothing to send part of the time: no TCP or OS setting changes that.',
    control: { kind: 'buffer', bytes: 1 << 20 },
  };
}

/** Every advice entry for a result; `local` is this PC's readable settings, the partner's come in the result (absent: unknown). */
export function adviseResult(r: LonghaulResult, local: LocalSettings): Advice[] {
  const emulated = r.link?.settings ? r.link : null;
  const out: Advice[] = [];
  for (const d of r.diagnosis ?? []) {
    // The window must cover the path's own RTT (its minimum), as in the what-if (contract/what-if-result.ts).
    const rtt = d.numbers.minRttSeconds || d.numbers.rttSeconds;
    const sender: Side = d.direction === 'controllerToResponder' ? 'controller' : 'responder';
    const streams = Math.max(1, r.streams.filter((s) => s.sender === sender).length);
    const stated = r.pathRate?.bitsPerSecond ?? emulated?.settings?.rateBitsPerSec ?? null;
    // A rate the run itself beat is not the path's (the verdict says so): no window is sized from it.
    const rate = rateContradicted(stated, d.numbers.measuredBitsPerSecond) ? null : stated;
    // A UDP run through the emulator: its own advice where the emulator fell behind, else the rate's (verdicts/udp.ts).
    if (emulated && (r.params.protocol !== 'udp' || d.verdict === 'emulator-limited')) {
      // The emulator runs on the PC that wrote a loopback result.
      const own = emulatedLines(d, emulated, rtt ? neededWindowBytes(rate, rtt, streams) : null);
      const at = r.writtenBy;
      for (const line of own.lines)
        out.push({
          direction: d.direction,
          verdict: d.verdict,
          topic: 'link-emulator',
          side: at,
          thisPc: true,
          hostname: r[at].hostname,
          os: osFamily(r[at].os).label,
          ...line,
        });
      if (!own.osAdvice) continue;
    }
    const push = (side: Side, topic: AdviceTopic, line: AdviceLine, os: string): void => {
      const why = emulated ? REAL_PATH + line.why.charAt(0).toLowerCase() + line.why.slice(1) : line.why;
      out.push({ direction: d.direction, verdict: d.verdict, topic, side, thisPc: side === r.writtenBy, hostname: r[side].hostname, os, ...line, why });
    };
    const udp = udpAdvice(d, r);
    if (udp) {
      // The sending PC's CPU, or the receiving PC's buffer: the finding's side; the rate: the sender's.
      const at = udp.topic === 'cpu' || d.case === 'receiver-limited/udp-socket-full' ? (d.side ?? sender) : sender;
      push(at, udp.topic, udp.line, osFamily(r[at].os).label);
      continue;
    }
    // The verdicts no buffer moves (the path, loss, a growing window, a CPU, a slow reader).
    const cpuSide = d.verdict === 'cpu-limited' ? (d.side ?? null) : null;
    for (const v of verdictLines(d, r, streams, r[sender].os?.platform === 'linux', cpuSide)) {
      const side = v.topic === 'cpu' && cpuSide ? cpuSide : sideOf(d.direction, v.end);
      push(side, v.topic, v.line, osFamily(r[side].os).label);
    }
    if (!rtt) continue;
    const needFor = (side: Side): AdviceNeed => ({
      windowBytes: neededWindowBytes(rate, rtt, streams),
      bytesPerMbit: neededWindowBytes(1e6, rtt, streams),
      pathMssBytes: DEFAULT_MSS_BYTES,
      // The partner's values as it read them itself and sent at the end of the run (partner-settings.ts).
      current: (key) => (side === r.writtenBy ? local[key] : r[side].settings?.[key]) ?? null,
    });
    if (!emulated && d.verdict === 'window-limited' && r.params.windowBytes !== null) {
      push('controller', 'longhaul-request', requestLine(r.params.windowBytes, needFor('controller')), osFamily(r.controller.os).label);
    }
    if (d.verdict === 'application-limited') {
      const line = d.numbers.pacedBitsPerSecond ? pacedLine(r.params.bitrateBitsPerSec ?? d.numbers.pacedBitsPerSecond) : applicationLine(r);
      push(sender, 'application', line, osFamily(r[sender].os).label);
    }
    for (const [topic, end] of topicsFor(d, r, needFor(sender))) {
      const side = sideOf(d.direction, end);
      const family = osFamily(r[side].os);
      const lines = family.rules?.[topic]?.(needFor(side)) ?? [
        {
          setting: `the ${topic.replace('-', ' ')} settings of its OS`,
          currentValue: null,
          neededValue: 'see docs/results.md, "advice", for the Linux, Windows and macOS settings',
          how: 'unknown: the OS of this PC is not known',
          why: 'Advice names settings per OS; this PC did not say which it runs.',
        },
      ];
      for (const line of lines) push(side, topic, line, family.label);
    }
  }
  return out;
}
