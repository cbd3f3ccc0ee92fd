/**
 * `longhaul doctor` in words: how bytes move on this PC (native/data-path.ts: each choice, and why
 * when it is not the fast one), this PC's TCP settings as the advice reads them (unknown where the
 * OS does not say), and which switches are set. Data in, lines out: the command only prints them.
 */
import type { DataPath } from '../native/data-path.js';
import type { LocalSettings } from '../analysis/advice/settings-keys.js';
import { printable } from '../util/printable.js';

export interface DoctorFacts {
  path: DataPath;
  /** Longhaul's and Node's versions, the CPU architecture. */
  version: string;
  node: string;
  arch: string;
  /** What the advice reads of this PC's TCP settings, by key (absent: unknown). */
  settings: LocalSettings;
  /** The settings' keys on this OS, in order: the ones not read are shown as unknown. */
  settingKeys: readonly string[];
  /** The data-path switches and their values, as set in the environment (unset ones absent). */
  switches: Record<string, string>;
  switchNames: readonly string[];
}

const OS_NAME: Partial<Record<NodeJS.Platform, string>> = { win32: 'Windows', linux: 'Linux', darwin: 'macOS' };

/** A choice: what is used, and why when it is the fallback. */
function choice(used: string, reason: string | null): string {
  return reason ? `${used} (${printable(reason)})` : used;
}

export function formatDoctor(f: DoctorFacts): string {
  const p = f.path;
  const rows: [string, string][] = [
    ['TCP byte loop', choice(p.tcpIo.io === 'native' ? "the addon's thread per stream" : "Node's socket reads and writes", p.tcpIo.reason)],
    [
      'data connections',
      choice(
        p.conn.mode === 'owned'
          ? `owned by the addon (the window set before the handshake), ${p.conn.handover === 'duplicate' ? 'duplicated into the data worker (WSADuplicateSocketW)' : 'handed to the data worker as a Node handle'}`
          : p.addon.loaded
            ? "Node's sockets (the window set on the descriptor before the handshake)"
            : "Node's sockets (the window stays the OS's: no addon to set it)",
        p.conn.reason,
      ),
    ],
    ['UDP datagrams', choice(p.udpSendIo.io === 'native' ? "the addon's sender thread" : "Node's datagram socket", p.udpSendIo.reason)],
    [
      '--bitrate pacing',
      p.pacing.mode === 'own'
        ? choice("Longhaul's own, in the byte loop", p.pacing.reason)
        : "the kernel's per-socket cap (SO_MAX_PACING_RATE); Longhaul's own where a socket refuses it",
    ],
    [
      'send backlog',
      p.sendBacklog.bounded ? 'bounded (TCP_NOTSENT_LOWAT): a stop is not held up by what the kernel queued' : choice('not bounded', p.sendBacklog.reason),
    ],
    ['link emulator', choice(p.relay.kind === 'native' ? "the addon's relay thread" : 'JavaScript on Node sockets', p.relay.reason)],
    ['native addon', p.addon.loaded ? 'loaded' : choice('not loaded', p.addon.reason)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const keyWidth = Math.max(0, ...f.settingKeys.map((k) => k.length));
  const set = f.switchNames.filter((n) => f.switches[n] !== undefined);
  return [
    `How bytes move on this PC (${OS_NAME[p.platform] ?? p.platform} ${f.arch}, Longhaul ${f.version}, Node ${f.node}):`,
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    '',
    f.settingKeys.length ? "This PC's TCP settings, as the advice reads them:" : "This PC's TCP settings: none that Longhaul reads on this OS.",
    ...f.settingKeys.map((k) => `  ${k.padEnd(keyWidth)}  ${f.settings[k] !== undefined ? printable(f.settings[k] ?? '') : 'unknown'}`),
    '',
    set.length
      ? `Switches set: ${set.map((n) => `${n}=${printable(f.switches[n] ?? '', 40)}`).join(', ')} (docs/data-path.md).`
      : `Switches set: none (${f.switchNames.join(', ')} force a choice: docs/data-path.md).`,
    '',
  ].join('\n');
}
