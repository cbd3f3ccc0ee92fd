/**
 * A start that failed before any byte moved (contract/api.ts `RunFailed`), in
 * plain words: which step can fix it, what happened, and what to do. One place
 * for the words, matched on the stable error code, never on the engine's message
 * (which is kept as the detail, second).
 */
import type { LonghaulErrorCode } from '../../../electron/contract/error-codes.js';
import { HOW_TO_PAIR } from '../../../electron/contract/pairing-words.js';

/** The wizard step a failed start goes back to. */
type FixStep = 'pair' | 'link' | 'test';

export interface StartFailure {
  step: FixStep;
  code: LonghaulErrorCode;
  /** What happened, in a test engineer's words. */
  text: string;
  /** What to do about it. */
  fix: string;
  /** The engine's own message (may name a CLI command: shown second, for the record). */
  detail: string;
  /** The partner address as typed when it failed: a Partner-step message is stale once it changes. */
  partner: string;
}

type Words = { step: FixStep; text: (partner: string) => string; fix: string };

const AT_PARTNER: FixStep = 'pair';

/** Code → step and words. Codes not listed go back to the Test step with the engine's message. */
const WORDS: Partial<Record<LonghaulErrorCode, Words>> = {
  LH_ERR_NOT_PAIRED: {
    step: AT_PARTNER,
    text: (p) => `${p} answered, but it is not paired with this PC (never, or it forgot this PC), so it refused the test.`,
    fix: `Pair them: ${HOW_TO_PAIR} Then start again.`,
  },
  LH_ERR_REFUSED: {
    step: AT_PARTNER,
    text: (p) => `Nothing is waiting for a test at ${p}: the connection was refused.`,
    fix: 'On the other PC, open Longhaul and choose "Wait for a partner"; check that the address and port here match what it shows.',
  },
  LH_ERR_TIMEOUT: {
    step: AT_PARTNER,
    text: (p) => `${p} did not answer in time.`,
    fix: 'Check that the other PC is on and waiting for a partner, that the address is right, and that its firewall lets the port through.',
  },
  LH_ERR_PEER_GONE: {
    step: AT_PARTNER,
    text: (p) => `This PC could not reach ${p}, or the connection dropped before the test began.`,
    fix: 'Check the name or address (a name this PC cannot look up fails here too) and that both PCs are on the same network.',
  },
  LH_ERR_TLS: {
    step: AT_PARTNER,
    text: (p) => `The secure connection to ${p} failed.`,
    fix: 'Check that the address is the other PC running Longhaul (not another program on that port), then pair again if it was reinstalled.',
  },
  LH_ERR_TLS_REQUIRED: {
    step: AT_PARTNER,
    text: (p) => `${p} did not answer as Longhaul does.`,
    fix: 'Check the address and port: another program, or an older Longhaul, is listening there.',
  },
  LH_ERR_PROTOCOL_VERSION: {
    step: AT_PARTNER,
    text: () => 'The two PCs run different versions of Longhaul.',
    fix: 'Install the same Longhaul version on both PCs.',
  },
  LH_ERR_DATA_STREAM: {
    step: AT_PARTNER,
    text: (p) => `${p} accepted the test, but the data connections could not be opened.`,
    fix: 'A firewall on the other PC may let the first connection through but not the data: allow Longhaul through it.',
  },
  LH_ERR_IDENTITY: {
    step: AT_PARTNER,
    text: () => 'This PC\u2019s own Longhaul identity could not be read, so it cannot prove who it is.',
    fix: 'Check that Longhaul\u2019s data folder on this PC is readable; the detail below names the file.',
  },
  LH_ERR_PARAMS_REJECTED: {
    step: 'test',
    text: () => 'The other PC refused these test settings.',
    fix: 'Change the settings the detail below names (fewer streams, a shorter test, a smaller window), or raise the limits on the other PC.',
  },
  LH_ERR_RESPONDER_LIMIT: {
    step: 'test',
    text: () => 'A limit of the other PC (its longest test or most bytes per test) ended the test.',
    fix: 'Run a shorter or smaller test, or raise the limit the detail below names on the other PC.',
  },
  LH_ERR_BAD_ARGUMENT: {
    step: 'test',
    text: () => 'These test settings cannot be run.',
    fix: 'Correct the setting the detail below names.',
  },
  LH_ERR_STOPPED: {
    step: 'test',
    text: () => 'The test was stopped before any data moved.',
    fix: 'Start it again when ready.',
  },
  LH_ERR_BUSY: {
    step: 'test',
    text: () => 'Another test, sweep or measurement is already running on this PC.',
    fix: 'Wait for it to end (or stop it), then start again.',
  },
  LH_ERR_IO: {
    step: 'link',
    text: () => 'The link emulator on this PC did not start.',
    fix: 'Try again; if it keeps failing, choose a direct link and see the detail below.',
  },
};

for (const code of ['LH_ERR_IPERF3_PROTOCOL', 'LH_ERR_IPERF3_REFUSED', 'LH_ERR_IPERF3_SERVER_ERROR'] as const) {
  WORDS[code] = {
    step: AT_PARTNER,
    text: (p) => `The iperf3 server at ${p} refused or broke off the test.`,
    fix: 'Check that an iperf3 server (iperf3 -s) is idle at that address; the detail below has its words.',
  };
}

/** The failure in words, for a partner as typed (`partner`: "lab-7:5211"). */
export function startFailure(code: LonghaulErrorCode, message: string, partner: string): StartFailure {
  const w = WORDS[code];
  const shown = partner.trim() || 'the partner';
  if (!w) return { step: 'test', code, text: 'The test did not start.', fix: 'See the detail below, correct it and start again.', detail: message, partner };
  return { step: w.step, code, text: w.text(shown), fix: w.fix, detail: message, partner };
}
