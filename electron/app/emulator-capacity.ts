/**
 * What the link emulator can carry on this PC, measured, so the Link screen can
 * warn before a run whose rate this PC cannot emulate (the result would then
 * say "emulator-limited" after the fact). The probe is the product itself:
 * `longhaul loopback --rate 100gbit -t 3` (the proxy in its own process, both
 * ends' byte loops), in a child process; the figure is the median of its
 * per-second intervals after the first, payload bit/s. Kept in the data folder
 * beside the results: a property of this PC, re-measured on demand.
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmulatorCapacityInfo } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { LonghaulError } from '../util/errors.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { EMULATOR_CAPACITY_FILE as FILE } from './history-files.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));
const PROBE_SECONDS = 3;
/** The probe's whole budget: start-up, pairing, 3 s of data, the proxy's drain. */
const PROBE_LIMIT_MS = 45_000;

export async function loadCapacity(dataDir: string): Promise<EmulatorCapacityInfo | null> {
  try {
    const v = JSON.parse(await readFile(path.join(dataDir, FILE), 'utf8')) as Partial<EmulatorCapacityInfo>;
    if (typeof v.bitsPerSecond !== 'number' || !(v.bitsPerSecond > 0) || typeof v.measuredAt !== 'string') return null;
    return {
      bitsPerSecond: v.bitsPerSecond,
      relay: v.relay === 'js' ? 'js' : 'native',
      cores: typeof v.cores === 'number' ? v.cores : null,
      measuredAt: v.measuredAt,
      probe: String(v.probe ?? ''),
    };
  } catch {
    return null; // never measured (or an unreadable file: measure again)
  }
}

/** Run the probe, save and return the figure. Rejects with LH_ERR_IO when the probe fails. */
export async function measureCapacity(dataDir: string): Promise<EmulatorCapacityInfo> {
  await mkdir(dataDir, { recursive: true });
  const dir = await mkdtemp(path.join(dataDir, '.capacity-'));
  const json = path.join(dir, 'probe.json');
  const args = ['loopback', '--rate', '100gbit', '-t', String(PROBE_SECONDS), '--json', json];
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = fork(BIN, args, { stdio: 'ignore', execArgv: [] });
      const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_LIMIT_MS);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
      child.once('error', () => undefined);
    });
    let result: LonghaulResult;
    try {
      result = JSON.parse(await readFile(json, 'utf8')) as LonghaulResult;
    } catch {
      throw new LonghaulError('LH_ERR_IO', `the emulator probe (longhaul ${args.slice(0, 5).join(' ')}) ended with code ${code} and no result`);
    }
    const rates = result.intervals
      .filter((i) => i.t > 1 && i.seconds > 0.5)
      .map((i) => ((i.receivedBytes ?? 0) * 8) / i.seconds)
      .sort((a, b) => a - b);
    const bitsPerSecond = rates[Math.floor(rates.length / 2)] ?? result.total.bitsPerSecond ?? 0;
    if (!(bitsPerSecond > 0)) throw new LonghaulError('LH_ERR_IO', 'the emulator probe moved no data');
    const w = result.link?.emulatorWatch;
    const info: EmulatorCapacityInfo = {
      bitsPerSecond,
      relay: w?.relay ?? 'js',
      cores: w?.cores ?? null,
      measuredAt: new Date().toISOString(),
      probe: `longhaul loopback --rate 100gbit -t ${PROBE_SECONDS}: median of the per-second intervals after the first`,
    };
    const file = path.join(dataDir, FILE);
    await replaceFileAtomicallyAsync(file, JSON.stringify(info, null, 2) + '\n');
    return info;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
