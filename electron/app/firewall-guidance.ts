/**
 * Plain-words firewall guidance, for the two moments a blocked listener shows:
 *
 * - on the controller, when the connection check gets no answer or a filtered
 *   rejection: what to allow on the partner PC, whose OS this PC cannot know;
 * - on the responder, when it has waited a while and no partner has come: what
 *   to allow on this PC, whose OS it does know, when nothing reached it at all;
 *   what to do instead when connections did reach it (then no firewall is dropping them).
 *
 * Longhaul cannot see a firewall's decision (a dropped SYN leaves no trace on
 * the listening side), so the text says "if", never "is blocked".
 * The Windows installer adds an inbound rule only when installed for all users
 * (with admin rights; build/installer.nsh); a per-user install relies on this text.
 */

/** How long the responder waits for a first partner before it shows the hint. */
export const FIREWALL_HINT_AFTER_MS = 45_000;

const WINDOWS_STEPS =
  'open Windows Security → Firewall & network protection → "Allow an app through firewall" → Change settings, ' +
  'and tick Longhaul for Private networks (this needs an administrator; installing Longhaul "for anyone who uses this computer" adds the rule by itself). ' +
  'If Windows calls this network "Public", set it to Private in Settings → Network & internet, or ask for Longhaul to be allowed on Public networks too.';
const MAC_STEPS = 'open System Settings → Network → Firewall → Options, and set Longhaul to "Allow incoming connections".';
const linuxSteps = (port: number): string =>
  `allow TCP port ${port} in: "sudo ufw allow ${port}/tcp" (Ubuntu), "sudo firewall-cmd --add-port=${port}/tcp" (Fedora), or your distribution's firewall tool.`;

/** The steps for one OS, as a sentence fragment after "on <that PC>: ". */
export function allowSteps(platform: NodeJS.Platform, port: number): string {
  switch (platform) {
    case 'win32':
      return WINDOWS_STEPS;
    case 'darwin':
      return MAC_STEPS;
    default:
      return linuxSteps(port);
  }
}

/**
 * Controller side: appended to a 'timed-out' or 'firewall-suspected' check.
 * The partner's OS is unknown here, so each is named.
 */
export function partnerFirewallAdvice(port: number): string {
  return [
    `If Longhaul is waiting on the partner PC, its firewall is the usual cause. On the partner:`,
    `Windows: ${WINDOWS_STEPS}`,
    `macOS: ${MAC_STEPS}`,
    `Linux: ${linuxSteps(port)}`,
  ].join('\n');
}

/**
 * What has reached a waiting responder so far, the premise of its hint, in rising order: nothing at all; some
 * connection (a connection check, a stray client); a PC that is not paired; a partner that paired or ran a test.
 */
export type WaitingSeen = 'nothing' | 'connection' | 'unpaired' | 'partner';

/** Rank of each premise: a later fact replaces an earlier one, never the reverse. */
export const WAITING_SEEN_ORDER: readonly WaitingSeen[] = ['nothing', 'connection', 'unpaired', 'partner'];

/**
 * Responder side: shown while waiting when no partner has come for a while, in words for what was seen;
 * null once a partner has paired, connected or run (the hint's premise is then false).
 */
export function waitingFirewallHint(seen: WaitingSeen, platform: NodeJS.Platform, port: number, waitedMs: number): string | null {
  const waited = Math.round(waitedMs / 1000);
  switch (seen) {
    case 'partner':
      return null;
    case 'unpaired':
      return (
        `No paired partner has come in ${waited} s, but a PC that is not paired with this one did reach it (listed below), ` +
        `so the firewall lets connections through. On that PC, pair with the code above (Partner step → Pair), then start the test.`
      );
    case 'connection':
      return (
        `No partner has started a test in ${waited} s, though connections did reach this PC (a connection check, for one), ` +
        `so the firewall lets them through. On the partner, press "Start the test".`
      );
    case 'nothing':
      return (
        `No connection at all has reached this PC in ${waited} s. If the partner's connection check says "no answer", ` +
        `a firewall on this PC is probably dropping it. On this PC, ${allowSteps(platform, port)}`
      );
  }
}
