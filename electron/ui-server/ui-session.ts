/**
 * Who may use browser mode. `longhaul ui` prints (and opens) a URL with a
 * random one-time token; the first load of that URL trades it for an
 * HttpOnly, SameSite=Strict cookie and redirects to the bare address, so the
 * token leaves the address bar and the history. Pages, files and the
 * WebSocket then need the cookie, so further tabs of that browser, and the
 * same link opened again in it, go straight in. A second use of a token by a
 * browser without the cookie (a link copied from a terminal log, a browser
 * history, another user's `ps` of the opener) is refused: another browser
 * needs a new link, which the running `longhaul ui` prints on request
 * (`newLink`: Enter on its terminal, or `longhaul ui --link` through
 * link-door.ts), each one also single-use.
 * The cookie's name carries the port: cookies are per host, not per port, and
 * two `longhaul ui` on one PC must not log each other out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

type PageAccess =
  | { kind: 'ok' }
  /** A launch URL opened again by a browser already let in: a redirect to `/`, nothing traded. */
  | { kind: 'home' }
  /** A fresh launch URL: answer with `setCookie` and a redirect to `/`. */
  | { kind: 'exchange'; setCookie: string }
  | { kind: 'refused'; why: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Links asked for and not yet opened, kept at most: asking more drops the oldest (it then reads as not this server's). */
const MAX_UNUSED_TOKENS = 16;
/** Used tokens remembered, so a second use is told "already used" rather than "not this link"; the oldest are forgotten. */
const MAX_USED_TOKENS = 256;

export class UiSession {
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly unused: string[] = [];
  private readonly used: string[] = [];

  constructor(private readonly port: () => number) {}

  /** A new URL to print and open: its token lets one browser in, once. */
  newLink(): string {
    const token = randomBytes(24).toString('base64url');
    this.unused.push(token);
    if (this.unused.length > MAX_UNUSED_TOKENS) this.unused.shift();
    return `http://127.0.0.1:${this.port()}/?token=${token}`;
  }

  private get cookieName(): string {
    return `longhaul_${this.port()}`;
  }

  /** May this request have pages and files? A launch URL is traded for the cookie once; a browser with the cookie is sent home. */
  pageAccess(req: http.IncomingMessage): PageAccess {
    const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
    if (token !== null) {
      const i = this.unused.findIndex((t) => same(t, token));
      if (i >= 0) {
        this.unused.splice(i, 1);
        this.used.push(token);
        if (this.used.length > MAX_USED_TOKENS) this.used.shift();
      }
      // Already let in (another tab, the link opened again): home, and the token, if it was unused, is spent.
      if (this.hasCookie(req)) return { kind: 'home' };
      if (i >= 0) return { kind: 'exchange', setCookie: `${this.cookieName}=${this.secret}; HttpOnly; SameSite=Strict; Path=/` };
      if (this.used.some((t) => same(t, token)))
        return {
          kind: 'refused',
          why: 'this link was already used by another browser (each link lets one browser in): for this one, press Enter in the terminal where `longhaul ui` runs (or run `longhaul ui --link`) and open the new link it prints',
        };
      return {
        kind: 'refused',
        why: 'this is not a link this `longhaul ui` printed: open the one it printed, or ask it for a new one (Enter in its terminal, or `longhaul ui --link`)',
      };
    }
    return this.hasCookie(req)
      ? { kind: 'ok' }
      : {
          kind: 'refused',
          why: 'this browser has not been let in yet: open the link `longhaul ui` printed, or ask it for a new one (Enter in its terminal, or `longhaul ui --link`)',
        };
  }

  /** Whether the request carries this server's session cookie. */
  hasCookie(req: http.IncomingMessage): boolean {
    const header = req.headers.cookie ?? '';
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === this.cookieName && same(part.slice(eq + 1).trim(), this.secret)) return true;
    }
    return false;
  }
}
