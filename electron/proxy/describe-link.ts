/**
 * Human text for a link, and the `LinkInfo` a result records. Every number
 * carries its unit; loss is always called what it is here: a model.
 */
import type { EmulatorWatchInfo, LinkInfo, ModelledLossInfo } from '../contract/link-info.js';
import { formatMs, formatRate, groupDigits } from '../contract/units.js';
import { modelCeilingBitsPerSec, type LinkSpec } from './link-settings.js';
import { describeStageConfig, stageCaveats } from './registry.js';
import { EMULATION_NOTE, type StageConfig } from './stage.js';

/** One stage in words: its own definition says it (proxy/registry.ts). */
function describeStage(c: StageConfig): string {
  return describeStageConfig(c);
}

/** What the UDP relay does with the stages (proxy/udp/datagram-link.ts), said where a UDP run's link is described. */
const UDP_LINK_NOTE =
  'UDP: each datagram crosses the emulated link as a packet: the rate counts 42 header bytes per datagram (Ethernet, IPv4, UDP), ' +
  "a full queue drops it, loss drops it (a real drop, not TCP's model); the window and slow start are TCP's: nothing to a datagram";

/** A few lines: the settings in words, both chains, the model ceiling; for a UDP run, what the stages do to datagrams. */
export function describeLink(spec: LinkSpec, preset: string | null = null, protocol: 'tcp' | 'udp' = 'tcp'): string[] {
  const lines: string[] = [];
  const s = spec.settings;
  const udp = protocol === 'udp';
  if (s) {
    const loss = `loss ${(s.lossRatio * 100).toFixed(3).replace(/\.?0+$/, '')} %${s.lossPattern === 'periodic' ? ' periodic' : ''}`;
    const parts = [
      `${formatMs(s.delayMs)} each way (RTT ${formatMs(2 * s.delayMs)})${s.jitterMs > 0 ? ` ± ${formatMs(s.jitterMs)} jitter` : ''}`,
      s.rateBitsPerSec === null ? 'rate not limited' : `${formatRate(s.rateBitsPerSec)} each way`,
      ...(udp
        ? [s.lossRatio > 0 ? `${loss} of datagrams dropped` : 'no loss']
        : [
            s.windowBytes === null ? 'window not emulated' : `window ${groupDigits(s.windowBytes)} bytes`,
            s.slowstart ? `slow start from 10 × ${s.mssBytes} bytes` : 'no slow start',
            s.lossRatio > 0 ? `${loss} (modelled)` : 'no loss',
          ]),
    ];
    lines.push(`Link${preset ? ` (${preset})` : ''}: ${parts.join(', ')}`);
    if (!udp) {
      const ceiling = modelCeilingBitsPerSec(s);
      lines.push(`  model ceiling per stream, min(rate × payload share, window / RTT): ${ceiling === null ? 'none (nothing limits it)' : formatRate(ceiling)}`);
    }
  }
  lines.push(`  up   (client -> target): ${spec.chains.up.map(describeStage).join(' -> ') || 'no stages'}`);
  lines.push(`  down (target -> client): ${spec.chains.down.map(describeStage).join(' -> ') || 'no stages'}`);
  if (udp) lines.push(`  note: ${UDP_LINK_NOTE}`);
  else for (const caveat of stageCaveats([...spec.chains.up, ...spec.chains.down])) lines.push(`  note: ${caveat}`);
  return lines;
}

/** One line on what the loss model did, e.g. "modelled loss up: 31 of 3,120 segments lost, 29 halvings; down: none". */
export function describeModelledLoss(m: NonNullable<LinkInfo['modelledLoss']>): string {
  const one = (s: ModelledLossInfo | null): string =>
    s === null
      ? 'no loss stage'
      : `${groupDigits(s.losses)} of ${groupDigits(s.segments)} segments lost, ${groupDigits(s.halvings)} ${s.halvings === 1 ? 'halving' : 'halvings'}`;
  return `modelled loss up (client -> target): ${one(m.up)}; down: ${one(m.down)}`;
}

/** What a result records about the link. */
export function linkInfo(
  spec: LinkSpec,
  preset: string | null,
  bypassToggles: LinkInfo['bypassToggles'],
  modelledLoss: { up: ModelledLossInfo | null; down: ModelledLossInfo | null } | null = null,
  emulatorWatch: EmulatorWatchInfo | null = null,
  target: string | null = null,
  udpRelay: LinkInfo['udpRelay'] | null = null,
): LinkInfo {
  return {
    emulator: 'longhaul-proxy',
    preset,
    ...(target ? { target } : {}),
    settings: spec.settings ? { ...spec.settings } : null,
    chains: { up: spec.chains.up.map((c) => ({ ...c })), down: spec.chains.down.map((c) => ({ ...c })) },
    modelCeilingBitsPerSec: spec.settings ? modelCeilingBitsPerSec(spec.settings) : null,
    bypassToggles: bypassToggles.map((b) => ({ ...b })),
    ...(modelledLoss ? { modelledLoss: { up: modelledLoss.up && { ...modelledLoss.up }, down: modelledLoss.down && { ...modelledLoss.down } } } : {}),
    ...(emulatorWatch
      ? { emulatorWatch: { ...emulatorWatch, up: emulatorWatch.up && { ...emulatorWatch.up }, down: emulatorWatch.down && { ...emulatorWatch.down } } }
      : {}),
    ...(udpRelay ? { udpRelay: { up: udpRelay.up && { ...udpRelay.up }, down: udpRelay.down && { ...udpRelay.down } } } : {}),
    note: EMULATION_NOTE,
  };
}
