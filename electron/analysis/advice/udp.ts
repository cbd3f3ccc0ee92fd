/**
 * The one change for a UDP run (analysis/verdicts/udp.ts): no window, buffer or OS setting moves a
 * UDP rate; the rate asked does (higher, to find where loss begins; lower, to find what is carried
 * without loss), or the sending PC's CPU when it could not send at the asked rate.
 */
import { linkCommand } from './emulated.js';
import type { AdviceLine } from './os-rules.js';
import type { AdviceTopic } from '../../contract/advice.js';
import type { Diagnosis, LonghaulResult } from '../../contract/result.js';
import { bitrateFlag as rateFlag, bitrateText } from '../../contract/pacing-info.js';
import { formatLossShare, groupDigits } from '../../contract/units.js';
import { UDP_UNFRAGMENTED_BYTES } from '../../contract/udp.js';

/** The run's shape as flags, so the command tried is the same run at another rate: `-u -P 2 -R`. */
function shapeFlags(r: LonghaulResult): string {
  const p = r.params;
  const dir = p.direction === 'reverse' ? ' -R' : p.direction === 'bidir' ? ' --bidir' : '';
  return `-u${p.streams > 1 ? ` -P ${p.streams}` : ''}${dir}`;
}

/**
 * The command that tries the change: the ramp from the rate asked (`--udp-ramp`, one direction: it
 * doubles or halves from there and narrows to the rate carried), or, for --bidir, which a ramp does
 * not take, one run at `rate`.
 */
function tryFlags(r: LonghaulResult, rate: number): string {
  const asked = r.params.bitrateBitsPerSec;
  // The ramp runs through the link emulator too (its settings: linkTry adds them).
  if (r.params.direction !== 'bidir' && asked) return `${shapeFlags(r)} --udp-ramp -b ${rateFlag(asked)}`;
  return `${shapeFlags(r)} -b ${rateFlag(rate)}`;
}

/** Through the link emulator, the command tries the same link (loopback with its flags), not the bare loopback. */
function linkTry(r: LonghaulResult, flags: string): { longhaulCommand?: string } {
  const s = r.link?.settings;
  return s ? { longhaulCommand: linkCommand(s, null, flags) } : {};
}

/** How long a receiving socket's buffer should hold its stream's datagrams while the receiving thread is away (a busy core's scheduling gap), s. */
const BUFFER_HOLD_SECONDS = 0.05;

/** A -w value that holds BUFFER_HOLD_SECONDS of the stream's rate and at least doubles what was asked: `4M`, `640K`. */
function bufferFlag(perStreamBps: number | null, askedBytes: number | null): { bytes: number; flag: string } {
  const need = Math.max(((perStreamBps ?? 1e6) / 8) * BUFFER_HOLD_SECONDS, 2 * (askedBytes ?? 0), 1 << 20);
  const mib = Math.ceil(need / (1 << 20));
  return { bytes: mib * (1 << 20), flag: `${mib}M` };
}

/**
 * Where the receiving PC's OS does not count its drops (Windows), a receive buffer that holds less
 * than BUFFER_HOLD_SECONDS of the stream is a suspect worth naming beside the rate: '' otherwise.
 */
function smallBufferNote(d: Diagnosis, r: LonghaulResult, perStreamBps: number | null): string {
  if (d.figures?.receiverDrops || !perStreamBps) return '';
  const buffer = r.window.effectiveRcvBufBytes?.min ?? null;
  if (buffer === null) return '';
  const holdsSeconds = buffer / (perStreamBps / 8);
  if (holdsSeconds >= BUFFER_HOLD_SECONDS) return '';
  const ms = holdsSeconds * 1000;
  return ` The receiving PC's OS does not say how many it dropped itself, and each receiving socket's buffer (${groupDigits(buffer)} bytes) holds only ${ms < 1 ? ms.toFixed(2) : ms.toFixed(0)} ms of its stream: a larger -w (${bufferFlag(perStreamBps, r.params.windowBytes).flag}) tells the two apart.`;
}

/** The advice for a UDP finding: its topic and line; null for a finding that is not UDP's. */
export function udpAdvice(d: Diagnosis, r: LonghaulResult): { topic: AdviceTopic; line: AdviceLine } | null {
  const perStream = r.params.bitrateBitsPerSec ?? null;
  const loss = d.figures?.lossRatio?.value ?? null;
  const current = perStream ? bitrateText(perStream) : null;
  switch (d.case) {
    case 'application-limited/udp-carried': {
      const next = (perStream ?? 1e6) * 2;
      const link = linkTry(r, tryFlags(r, next));
      return {
        topic: 'application',
        line: {
          setting: 'the UDP rate asked (-b, per stream)',
          currentValue: current,
          neededValue: `a higher rate, e.g. ${rateFlag(next)}, until loss passes 1 %: the highest rate below that is what the path carries`,
          how: `longhaul run <partner> ${tryFlags(r, next)}`,
          runFlags: tryFlags(r, next),
          ...link,
          why: 'A UDP sender sends at the rate asked, and this one arrived: the path carries at least this much.',
          control: { kind: 'udp-rate', change: 'higher', rate: rateFlag(next) },
        },
      };
    }
    case 'loss-limited/udp-dropped': {
      const arrived = perStream && loss !== null ? perStream * (1 - loss) * 0.9 : null;
      return {
        topic: 'application',
        line: {
          setting: 'the UDP rate asked (-b, per stream)',
          currentValue: current,
          neededValue: arrived ? `a lower rate, e.g. ${rateFlag(arrived)}, until loss stays under 1 %` : 'a lower rate, until loss stays under 1 %',
          how: arrived ? `longhaul run <partner> ${tryFlags(r, arrived)}` : 'longhaul run <partner> -u with a lower -b',
          ...(arrived ? { runFlags: tryFlags(r, arrived), ...linkTry(r, tryFlags(r, arrived)) } : {}),
          why: `${loss !== null ? formatLossShare(loss) : 'Some'} of the datagrams were lost at this rate: the path, or the receiving PC, does not carry it.${smallBufferNote(d, r, perStream)}`,
          ...(arrived ? { control: { kind: 'udp-rate' as const, change: 'lower' as const, rate: rateFlag(arrived) } } : {}),
        },
      };
    }
    case 'receiver-limited/udp-socket-full': {
      // Drops are only known from Linux's per-socket counts, so the receiving PC is a Linux one, whose cap is net.core.rmem_max.
      const b = bufferFlag(perStream, r.params.windowBytes);
      const flags = `${shapeFlags(r)}${perStream ? ` -b ${rateFlag(perStream)}` : ''} -w ${b.flag}`;
      return {
        topic: 'application',
        line: {
          setting: "the receiving socket's buffer (-w, per stream: SO_RCVBUF)",
          currentValue: r.params.windowBytes ? `${groupDigits(r.params.windowBytes)} bytes asked` : "the OS's default",
          neededValue: `at least ${groupDigits(b.bytes)} bytes (${BUFFER_HOLD_SECONDS * 1000} ms of the stream's rate), with net.core.rmem_max at least that on the receiving PC (Linux caps SO_RCVBUF there)`,
          how: `sudo sysctl -w net.core.rmem_max=${b.bytes} on the receiving PC, then longhaul run <partner> ${flags}`,
          runFlags: flags,
          why: `The receiving PC's OS dropped ${d.figures?.receiverDrops ? groupDigits(d.figures.receiverDrops.value) : 'most'} datagrams at its own sockets, their buffers full before Longhaul read them: that loss is the receiving PC's, not the path's.`,
          control: { kind: 'udp-buffer', bytes: b.bytes },
        },
      };
    }
    case 'cpu-limited/udp-sender-short':
      return {
        topic: 'cpu',
        line: {
          setting: "the sending PC's CPU while it sends",
          currentValue: null,
          neededValue: `CPU to spare on the sending PC, or fewer, larger datagrams (-l up to ${UDP_UNFRAGMENTED_BYTES} B unfragmented on a 1500-byte MTU)`,
          how: 'close other programs on the sending PC, or run with a larger -l',
          why: "The sending PC could not send every datagram when its schedule said: the rate measured is the sending PC's, not the path's.",
        },
      };
    default:
      return null;
  }
}
