/**
 * Serves the built renderer (dist/ui) read-only: known file types only, no
 * path outside the folder, a strict Content-Security-Policy on every page.
 */
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built renderer, next to the compiled server: dist/ui. */
const RENDERER_DIR = fileURLToPath(new URL('../../ui/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The policy the page runs under: only its own scripts and styles, sockets only back to this server. */
function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ws://127.0.0.1:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Answer a GET for a renderer file; 404 for anything else. */
export async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, port: number, root = RENDERER_DIR): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  let rel: string;
  try {
    rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
  } catch {
    return plain(res, 400, 'bad path encoding');
  }
  const file = path.resolve(root, rel);
  const type = TYPES[path.extname(file)];
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed');
  if (!file.startsWith(path.resolve(root) + path.sep) || !type) return plain(res, 404, 'not found');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    const hint = rel === 'index.html' ? ': the renderer is not built; run `npm run build`' : '';
    return plain(res, 404, `not found${hint}`);
  }
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': body.length,
    'Content-Security-Policy': contentSecurityPolicy(port),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function plain(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text + '\n');
}
