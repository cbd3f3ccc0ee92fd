/**
 * Who may use browser mode. `longhaul ui` prints (and opens) a URL with a
 * random one-time token; the first load of that URL trades it for an
 * HttpOnly, SameSite=Strict cookie and redirects to the bare address, so the
 * token leaves the address bar and the history, and a second use of the URL
 * (copied from a terminal log, a browser history, another user's `ps` of the
 * opener) is refused. Pages, files and the WebSocket then need the cookie.
 * The cookie's name carries the port: cookies are per host, not per port, and
 * two `longhaul ui` on one PC must not log each other out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

type PageAccess =
  | { kind: 'ok' }
  /** A fresh launch URL: answer with `setCookie` and a redirect to `/`. */
  | { kind: 'exchange'; setCookie: string }
  | { kind: 'refused'; why: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class UiSession {
  private readonly urlToken = randomBytes(24).toString('base64url');
  private readonly secret = randomBytes(32).toString('base64url');
  private tokenUsed = false;

  constructor(private readonly port: () => number) {}

  /** The URL to print and open (its token works once). */
  launchUrl(): string {
    return `http://127.0.0.1:${this.port()}/?token=${this.urlToken}`;
  }

  private get cookieName(): string {
    return `longhaul_${this.port()}`;
  }

  /** May this request have pages and files? A launch URL is traded for the cookie once. */
  pageAccess(req: http.IncomingMessage): PageAccess {
    const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
    if (token !== null) {
      if (!same(token, this.urlToken))
        return { kind: 'refused', why: 'this is not the link `longhaul ui` printed: open the one it printed, or run it again for a new one' };
      if (this.tokenUsed)
        return { kind: 'refused', why: 'this link was already used once (it works once): use the tab it opened, or run `longhaul ui` again for a new one' };
      this.tokenUsed = true;
      return { kind: 'exchange', setCookie: `${this.cookieName}=${this.secret}; HttpOnly; SameSite=Strict; Path=/` };
    }
    return this.hasCookie(req) ? { kind: 'ok' } : { kind: 'refused', why: 'open the link `longhaul ui` printed (this browser has not been let in yet)' };
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
