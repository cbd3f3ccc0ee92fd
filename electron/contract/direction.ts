/**
 * Which way a run's bytes go, and how to say it: one list and one set of
 * words for the CLI's flags, the run schema, saved results, the Test and
 * Sweep screens and the sweep tables. Pure, no Node imports: the renderer
 * shares it.
 */

/** forward: the controller (this PC) sends; reverse: the responder sends; bidir: both, N streams each way. */
export const DIRECTIONS = ['forward', 'reverse', 'bidir'] as const;
export type Direction = (typeof DIRECTIONS)[number];

const DIRECTION_WORDS: Record<Direction, string> = { forward: 'this PC sends', reverse: 'the partner sends', bidir: 'both at once' };

/**
 * A run's direction in words, from this PC's side: `this PC sends`, or
 * `This PC sends` with `sentence` (a form's choice begins a sentence).
 * A value that is not a direction (a damaged file) is shown as it is.
 */
export function directionLabel(direction: string, sentence = false): string {
  const words = (DIRECTION_WORDS as Record<string, string | undefined>)[direction] ?? direction;
  return sentence ? words.charAt(0).toUpperCase() + words.slice(1) : words;
}

/** An end of a run: the controller starts it (this PC, in the app), the responder answers. */
export type Side = 'controller' | 'responder';

/** The other end of a run: a stream's receiver is the other side from its sender. */
export function otherSide(side: Side): Side {
  return side === 'controller' ? 'responder' : 'controller';
}

/** One measured direction of a result: its totals and its diagnosis are per path direction. */
type PathDirection = 'controllerToResponder' | 'responderToController';

/** `controller → responder`; `ascii` gives `controller -> responder` for a console that may not print the arrow. */
export function pathDirectionLabel(direction: PathDirection, ascii = false): string {
  const arrow = ascii ? '->' : '→';
  return direction === 'controllerToResponder' ? `controller ${arrow} responder` : `responder ${arrow} controller`;
}
