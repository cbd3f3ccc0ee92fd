/**
 * Not a second home for the units: import electron/contract/units.js. This
 * re-export stays only for the six Chart.js components until their shared
 * chart action lands; then they import the contract too and this file goes
 * (test/contract/one-copy.test.ts lists them and fails once none needs it).
 */
export {
  formatBinaryBytes,
  formatBitMetres,
  formatBytes,
  formatRate,
  formatRateShort,
  formatRateTick,
  formatRtt,
  formatSeconds,
  groupDigits,
  parseDistance,
  parseDuration,
  parseRate,
  parseSize,
  type Parsed,
} from '../../../electron/contract/units.js';
