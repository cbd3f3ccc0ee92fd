/**
 * The paired peers: name, certificate fingerprint, last address and last seen,
 * in `peers.json` (owner-only) beside the identity. A store may also live in
 * memory only (loopback's throw-away responder, tests).
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { LonghaulError } from '../util/errors.js';
import { plainAddress } from '../util/net.js';
import { writePrivate } from './private-files.js';

export interface PeerRecord {
  name: string;
  /** SHA-256 of the peer's certificate, lowercase hex. */
  fingerprint: string;
  /** Where it was last seen (an address without port), or null. */
  address: string | null;
  pairedAt: string;
  /** ISO time of the last authenticated connection. */
  lastSeen: string;
}

const fileSchema = z.object({
  schema: z.literal('longhaul.peers/1'),
  peers: z
    .array(
      z.object({
        name: z.string().min(1).max(255),
        fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
        address: z.string().max(100).nullable(),
        pairedAt: z.string(),
        lastSeen: z.string(),
      }),
    )
    .max(10_000),
});

export class PeerStore {
  private peers: PeerRecord[];
  /** What the file looked like when `peers` was read from it ('' = no file): a stranger's connection must not cost a file read. */
  private signature = '';

  private constructor(
    private readonly file: string | null,
    peers: PeerRecord[],
  ) {
    this.peers = peers;
  }

  /** Open (or start) the store in `file`. A damaged file is an error, never silently emptied. */
  static open(file: string): PeerStore {
    const store = new PeerStore(file, []);
    store.reload();
    return store;
  }

  /** A store that is never written to disk. */
  static memory(peers: PeerRecord[] = []): PeerStore {
    return new PeerStore(
      null,
      peers.map((p) => ({ ...p })),
    );
  }

  list(): PeerRecord[] {
    this.reload();
    return this.peers.map((p) => ({ ...p }));
  }

  find(fingerprint: string): PeerRecord | undefined {
    this.reload();
    return this.peers.find((p) => p.fingerprint === fingerprint);
  }

  /** Remember a peer (again); a taken name gets a suffix so `--forget NAME` stays unambiguous. */
  add(name: string, fingerprint: string, address: string | null, now = new Date()): PeerRecord {
    this.reload();
    this.peers = this.peers.filter((p) => p.fingerprint !== fingerprint);
    let unique = name;
    for (let i = 2; this.peers.some((p) => p.name === unique); i++) unique = `${name}-${i}`;
    const record: PeerRecord = {
      name: unique,
      fingerprint,
      address: address === null ? null : plainAddress(address),
      pairedAt: now.toISOString(),
      lastSeen: now.toISOString(),
    };
    this.peers.push(record);
    this.save();
    return { ...record };
  }

  /** Note an authenticated connection from a known peer. */
  seen(fingerprint: string, address: string | null, now = new Date()): void {
    this.reload();
    const p = this.peers.find((x) => x.fingerprint === fingerprint);
    if (!p) return;
    p.lastSeen = now.toISOString();
    // Stored as typed on the other PC: an IPv4 peer seen through a dual-stack socket is ::ffff:a.b.c.d, shown as a.b.c.d.
    if (address) p.address = plainAddress(address);
    this.save();
  }

  /** Forget by name or by fingerprint (or a unique prefix of it); returns what was removed. */
  forget(nameOrFingerprint: string): PeerRecord | null {
    this.reload();
    const key = nameOrFingerprint.toLowerCase().replace(/[\s:]/g, '');
    const byName = this.peers.filter((p) => p.name === nameOrFingerprint);
    const byFp = key.length >= 8 ? this.peers.filter((p) => p.fingerprint.startsWith(key)) : [];
    const hits = byName.length ? byName : byFp;
    const [hit] = hits;
    if (hits.length !== 1 || !hit) return null;
    this.peers = this.peers.filter((p) => p !== hit);
    this.save();
    return { ...hit };
  }

  /**
   * Another process (a `longhaul pair` or `peers --forget` beside a running
   * `listen`) may have changed the file: every operation starts from it, read
   * again only when its size, time or inode changed. Throws LH_ERR_IDENTITY
   * when the file cannot be read or is damaged (the cached list is kept).
   */
  private reload(): void {
    if (!this.file) return;
    const signature = fileSignature(this.file);
    if (signature === this.signature) return;
    this.peers = signature === '' ? [] : readPeers(this.file);
    this.signature = signature;
  }

  private save(): void {
    if (!this.file) return;
    writePrivate(this.file, JSON.stringify({ schema: 'longhaul.peers/1', peers: this.peers }, null, 2) + '\n');
    this.signature = fileSignature(this.file);
  }
}

/** Size, modification time and inode of `file` ('' when it does not exist). */
function fileSignature(file: string): string {
  try {
    const st = statSync(file, { bigint: true });
    return `${st.size}:${st.mtimeNs}:${st.ino}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new LonghaulError('LH_ERR_IDENTITY', `the peers file ${file} cannot be read (${(err as Error).message.slice(0, 200)})`);
  }
}

function readPeers(file: string): PeerRecord[] {
  try {
    return fileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).peers;
  } catch (err) {
    throw new LonghaulError('LH_ERR_IDENTITY', `the peers file ${file} is damaged or unreadable (${(err as Error).message.slice(0, 200)}): fix or remove it`);
  }
}
