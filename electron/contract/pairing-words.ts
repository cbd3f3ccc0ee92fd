/**
 * The app's own words for the errors of pairing. The engine's messages are
 * written for the CLI (they name `longhaul listen` and `longhaul pair`, which
 * an installed app does not have on PATH); the app matches on the stable
 * `code` and says what to do in the app instead. One place, so the Partner
 * step, a refused run and the Waiting screen say the same thing.
 */

/** A partner's name for a sentence: the name it showed, else its address, else "the other PC". */
function who(partner: string | null | undefined): string {
  const name = partner?.trim();
  return name ? name : 'the other PC';
}

/** How a pairing is done in the app, from this PC's side: the words every pairing error ends with. */
export const HOW_TO_PAIR = 'on that PC choose Wait for a partner and read the pairing code; type it on the Partner step.';

/**
 * What to do when a run is refused with `LH_ERR_NOT_PAIRED` (either side: this PC does not
 * know the partner, or the partner forgot this PC). `partner` is its name (from the
 * connection check) or the address typed.
 */
export function notPairedAdvice(partner: string | null | undefined): string {
  return `This PC is not paired with ${who(partner)}: ${HOW_TO_PAIR}`;
}

/** The Partner step's line for a partner that answered but is not paired yet. */
export function notPairedYetLine(): string {
  return "Reachable, not paired yet: type the code shown on the other PC's Waiting screen.";
}

/** Codes whose engine message names a CLI command, each with the app's words. */
const APP_WORDS: Partial<Record<string, (partner: string | null | undefined) => string>> = {
  LH_ERR_NOT_PAIRED: notPairedAdvice,
  LH_ERR_PAIRING_CLOSED: (p) =>
    `${who(p)} is not taking a pairing code now (a code works once): on that PC choose Wait for a partner, and type the code it shows now.`,
  LH_ERR_REFUSED: (p) => `${who(p)} refused the connection: nothing is waiting there. On that PC choose Wait for a partner, then try again.`,
};

/**
 * The text the app shows for an error: its own words where the engine's name a CLI command,
 * else the engine's message as it is.
 */
export function appErrorWords(err: { code: string; message: string }, partner: string | null | undefined): string {
  const words = APP_WORDS[err.code];
  return words ? words(partner) : err.message;
}
