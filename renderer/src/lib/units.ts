/**
 * What a user types and reads in the UI: sizes (binary, `64K` = 65,536 B),
 * rates (decimal bits, `4mbit` = 4,000,000 bit/s), durations (`650ms`, `1.3s`).
 * The rules are the CLI's own, from the contract: one copy for every door.
 */
export {
  formatBinaryBytes,
  formatBitMetres,
  formatBytes,
  formatRate,
  formatRateTick,
  formatSeconds,
  groupDigits,
  parseDistance,
  parseDuration,
  parseRate,
  parseSize,
  type Parsed,
} from '../../../electron/contract/units.js';
