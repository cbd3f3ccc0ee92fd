/** The words of what is true beside a verdict (FindingNote), appended to its detail in the notes' order. */
import type { Door } from '../door.js';
import type { FindingNote } from '../finding.js';
import type { FindingData } from './words.js';
import { formatRateShort } from '../units.js';
import { smallSegmentsNote } from './mss.js';
import { figure, lossPct } from './words.js';

function noteText(d: FindingData, note: FindingNote, door: Door): string {
  switch (note) {
    case 'loss-present-bbr':
      return ` Loss present (${lossPct(d.numbers.lossRatio ?? 0)} of segments retransmitted), not the limit: BBR does not slow down for random loss.`;
    case 'loss-present':
      return ` Loss present (${lossPct(d.numbers.lossRatio ?? 0)} of segments retransmitted), not the limit: the rate is far above what a loss-based sender (Reno, CUBIC) carries at that loss.`;
    case 'stated-rate-contradicted':
      return ` The link's stated rate, ${formatRateShort(figure(d, 'statedLinkRate') ?? 0)}, is below the ${formatRateShort(d.numbers.measuredBitsPerSecond ?? 0)} measured, so it is not this path's rate and the verdict leaves it out.`;
    case 'small-segments':
      return smallSegmentsNote(d, door);
    case 'emulated-link':
      return " (Emulated link: its RTT, window and rate, not the local hop's TCP_INFO.)";
    // Said inside the window's own detail.
    case 'window-scale-zero':
    case 'rtt-varied':
      return '';
  }
}

/** Every note's words, in the order the notes were found. */
export function notesText(d: FindingData, door: Door): string {
  return (d.notes ?? []).map((n) => noteText(d, n, door)).join('');
}
