/**
 * The link presets, as plain data the UI lists and lets the user edit. Each
 * is a complete `LinkSettings`; nothing is hidden behind a name.
 */
import type { LinkSettings } from './link-settings.js';

interface LinkPreset {
  /** What `--link NAME` takes. */
  name: string;
  label: string;
  /** Where the numbers come from. */
  about: string;
  settings: LinkSettings;
}

const BASE = { jitterMs: 0, windowBytes: null, slowstart: true, lossRatio: 0, mssBytes: 1448 } as const;

export const LINK_PRESETS: readonly LinkPreset[] = [
  {
    name: 'satellite',
    label: 'Satellite 4 Mbit/s, 1.3 s RTT',
    about: 'a long-delay satellite link: 4 Mbit/s and 650 ms each way',
    settings: { ...BASE, delayMs: 650, rateBitsPerSec: 4e6 },
  },
  {
    name: 'geostationary',
    label: 'Geostationary 2 Mbit/s, 600 ms RTT',
    about: 'a consumer GEO satellite service: 300 ms each way, 2 Mbit/s',
    settings: { ...BASE, delayMs: 300, rateBitsPerSec: 2e6 },
  },
  {
    name: 'transcontinental',
    label: 'Transcontinental 1 Gbit/s, 78 ms RTT',
    about: 'a 1 Gbit/s path across a continent: 39 ms each way',
    settings: { ...BASE, delayMs: 39, rateBitsPerSec: 1e9 },
  },
  {
    name: 'lossy-wifi',
    label: 'Lossy Wi-Fi 30 Mbit/s, 10 ms RTT, 1 % loss',
    about: 'a busy Wi-Fi hop: 5 ms ± 2 ms each way, 30 Mbit/s, 1 % of segments lost (modelled: late delivery + halving)',
    settings: { ...BASE, delayMs: 5, jitterMs: 2, rateBitsPerSec: 30e6, lossRatio: 0.01 },
  },
  {
    name: 'lan',
    label: 'LAN 1 Gbit/s, 0.2 ms RTT',
    about: 'a switched gigabit LAN: 0.1 ms each way',
    settings: { ...BASE, delayMs: 0.1, rateBitsPerSec: 1e9 },
  },
];

/** The preset called `name` (case-insensitive), or undefined. */
export function findPreset(name: string): LinkPreset | undefined {
  return LINK_PRESETS.find((p) => p.name === name.toLowerCase());
}
