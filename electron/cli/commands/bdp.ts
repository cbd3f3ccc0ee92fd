/** `longhaul bdp --rtt 1.3s --rate 4mbit | --window 8760`: bandwidth-delay product and window ceilings. */
import type { Command } from 'commander';
import { formatBdpReport } from '../../report/bdp-report.js';
import { ArgumentError } from '../../util/errors.js';
import { parseDuration, parseRate, parseSize } from '../../util/units.js';
import { addExamples } from '../help-layout.js';

interface BdpFlags {
  rtt: string;
  rate?: string;
  window?: string;
}

function positive(n: number, flag: string, text: string): number {
  if (!(n > 0) || !Number.isFinite(n)) throw new ArgumentError(`${flag}: "${text}" must be more than 0`, flag);
  return n;
}

export function register(program: Command): void {
  const cmd = program
    .command('bdp')
    .summary('bandwidth-delay product: the window a path needs, or the rate a window allows')
    .description('bandwidth-delay product: the window a path needs (--rate), or the rate a window allows (--window)')
    .requiredOption('--rtt <time>', 'round-trip time, e.g. 1.3s, 650ms')
    .option('--rate <rate>', 'path rate in bits/s (decimal), e.g. 4mbit, 1g')
    .option('--window <bytes>', 'TCP window in bytes (binary multiples), e.g. 8760, 64K');
  addExamples(cmd, ['longhaul bdp --rtt 1.3s --rate 4mbit', 'longhaul bdp --rtt 80ms --window 64K']);
  cmd.action((flags: BdpFlags) => {
    const rttSeconds = positive(parseDuration(flags.rtt, '--rtt'), '--rtt', flags.rtt);
    if (flags.rate === undefined && flags.window === undefined) {
      throw new ArgumentError('give --rate (to get the window needed) or --window (to get the rate ceiling), or both');
    }
    process.stdout.write(
      formatBdpReport({
        rttSeconds,
        rateBitsPerSec: flags.rate === undefined ? undefined : positive(parseRate(flags.rate, '--rate'), '--rate', flags.rate),
        windowBytes: flags.window === undefined ? undefined : positive(parseSize(flags.window, '--window'), '--window', flags.window),
      }),
    );
  });
}
