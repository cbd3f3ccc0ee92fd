/**
 * How `longhaul ui --link` gets a new link from the `longhaul ui` already running, without a restart. The
 * running one writes a random key into a file only this user can read (`ui-PORT.json` in the trust folder,
 * made private as for the identity key) and answers `POST /link` carrying that key with a new single-use
 * link (ui-session.ts). Whoever can read that file could as well read the terminal the first link was
 * printed on, or the identity key beside it: the same user, so nobody gains a way in.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { writePrivate } from '../security/private-files.js';
import { protectTrustDir } from '../security/trust-dir.js';

/** The request header that carries the key. */
const KEY_HEADER = 'x-longhaul-link-key';
const FILE = /^ui-(\d{1,5})\.json$/;
/** A running `longhaul ui` answers on 127.0.0.1 at once; longer means it is not there. */
const ASK_TIMEOUT_MS = 5000;

export class LinkDoor {
  private readonly key = randomBytes(32).toString('base64url');
  private file: string | null = null;

  /** Write the key file for the server on `port` into `dir` (created and protected first). */
  async open(dir: string, port: number): Promise<void> {
    await protectTrustDir(dir);
    const file = path.join(dir, `ui-${port}.json`);
    writePrivate(file, JSON.stringify({ port, key: this.key }) + '\n');
    this.file = file;
  }

  /** Remove the key file; safe to call twice. */
  close(): void {
    if (this.file) rmSync(this.file, { force: true });
    this.file = null;
  }

  /** Whether `req` asks for a link with this door's key. */
  admits(req: http.IncomingMessage): boolean {
    const given = Buffer.from(String(req.headers[KEY_HEADER] ?? ''));
    const key = Buffer.from(this.key);
    return req.method === 'POST' && given.length === key.length && timingSafeEqual(given, key);
  }
}

/**
 * A new link from the `longhaul ui` running for this user: the one on `port`, or with `port` null the only one
 * running. Throws an Error that says what to do when there is none, several, or it does not answer.
 */
export async function askRunningUi(dir: string, port: number | null): Promise<string> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => FILE.test(n));
  } catch {
    names = [];
  }
  const ports = names.map((n) => Number(FILE.exec(n)?.[1]));
  const chosen = port ?? (ports.length === 1 ? ports[0] : undefined);
  if (chosen === undefined || !ports.includes(chosen)) {
    const running = ports.length ? `it knows of ports ${ports.join(', ')}: give one with --port` : 'none is running for this user';
    throw new Error(`no running \`longhaul ui\`${port !== null ? ` on port ${port}` : ''} to ask (${running}); start one with \`longhaul ui\``);
  }
  const { key } = JSON.parse(readFileSync(path.join(dir, `ui-${chosen}.json`), 'utf8')) as { key: string };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: chosen, path: '/link', method: 'POST', headers: { host: `127.0.0.1:${chosen}`, [KEY_HEADER]: key } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c.length + body.length < 4096 ? c : ''));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(body.trim()) : reject(new Error(`the \`longhaul ui\` on port ${chosen} refused (HTTP ${res.statusCode})`)),
        );
      },
    );
    req.setTimeout(ASK_TIMEOUT_MS, () => req.destroy(new Error(`the \`longhaul ui\` on port ${chosen} did not answer within ${ASK_TIMEOUT_MS} ms`)));
    req.on('error', (err) => reject(new Error(`no \`longhaul ui\` answers on port ${chosen} (${err.message}); start one with \`longhaul ui\``)));
    req.end();
  });
}
