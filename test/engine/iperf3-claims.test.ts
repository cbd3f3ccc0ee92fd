/**
 * An iperf3 partner's results judged where the bound is sound (peer-claims.ts; docs/iperf3.md, "What an
 * iperf3 partner's results are checked against"), on 127.0.0.1.
 *
 * The real thing, Debian's iperf3 3.12 and a 3.21 build when present, through both doors (Longhaul's
 * client → `iperf3 -s`, `iperf3 -c` → Longhaul's iperf3 server), TCP and UDP, with and without -O: an
 * honest iperf3 is never rejected, and with -O its sender does report fewer bytes than arrived here (the
 * reason its sent bytes are judged only without -O).
 *
 * A lying peer: real iperf3 cannot be made to lie, so Longhaul's own iperf3 door speaks iperf3's protocol
 * to Longhaul's client with its results document tampered (× 1000), the JSON an iperf3 peer would send.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { afterEach, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { startIperf3Run } from '../../electron/engine/iperf3/iperf3-client.js';
import { Iperf3Control } from '../../electron/engine/iperf3/iperf3-control.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import { HAVE_IPERF3, freePort, runIperf3, startIperf3Server } from '../helpers/iperf3.js';

const BUILDS = [
  ['3.12', '/usr/bin/iperf3'],
  ['3.21', '/tmp/iperf321/src/iperf3'],
].filter(([, bin]) => existsSync(bin as string)) as [string, string][];

const UDP: Partial<RunParams> = { protocol: 'udp', bufferBytes: 1200, bitrateBitsPerSec: 20e6 };

/** Longhaul's client against `iperf3 -s` (`bin`). */
async function asClient(bin: string, params: Partial<RunParams>): Promise<LonghaulResult> {
  const port = await freePort();
  const { exit } = await startIperf3Server(port, 25_000, bin);
  const result = await startIperf3Run({ host: '127.0.0.1', port, params: { ...DEFAULT_PARAMS, streams: 2, bytes: null, seconds: 2, ...params } }).result;
  const server = await exit;
  assert.equal(server.code, 0, server.stderr);
  return result;
}

/** `iperf3 -c` (`bin`, `args`) against Longhaul's iperf3 server. */
async function asServer(bin: string, args: string[]): Promise<LonghaulResult> {
  const server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = await server.listen();
    const ended = new Promise<LonghaulResult | null>((resolve) => server.once('session-end', (r) => resolve(r)));
    const client = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-J', '-P', '2', '-t', '1', ...args], 25_000, bin);
    assert.equal(client.code, 0, client.stderr);
    const result = await ended;
    assert.ok(result, "the server's result");
    return result;
  } finally {
    await server.close();
  }
}

function assertHonest(r: LonghaulResult, label: string): void {
  assert.equal(r.partial, false, `${label}: ${r.partialReason}`);
  assert.ok(
    r.streams.every((s) => s.peerClaim === undefined && s.send && s.receive),
    `${label}: ${JSON.stringify(r.streams.map((s) => s.peerClaim))}`,
  );
  assert.equal(r.errors.filter((e) => e.code === 'LH_ERR_PEER_CLAIM').length, 0, label);
}

describe('an honest iperf3 is never rejected', { skip: !HAVE_IPERF3 && 'no /usr/bin/iperf3', timeout: 240_000 }, () => {
  for (const [version, bin] of BUILDS) {
    it(`iperf3 ${version} -s, Longhaul's client: TCP and UDP, both directions, -O 1 and without`, async () => {
      for (const [label, params] of [
        ['TCP forward -O 1', { omitSeconds: 1 }],
        ['TCP reverse', { direction: 'reverse' }],
        ['UDP forward -O 1', { ...UDP, omitSeconds: 1 }],
        ['UDP reverse', { ...UDP, direction: 'reverse' }],
      ] as [string, Partial<RunParams>][])
        assertHonest(await asClient(bin, params), `${version} ${label}`);
      // -O 1, reverse: iperf3's sender leaves the omitted second out of its bytes; a bound on them would reject it.
      const r = await asClient(bin, { direction: 'reverse', omitSeconds: 1 });
      assertHonest(r, `${version} TCP reverse -O 1`);
      for (const s of r.streams)
        assert.ok((s.send?.bytes ?? 0) < (s.receive?.bytes ?? 0), `${version}: iperf3 claims ${s.send?.bytes} sent, ${s.receive?.bytes} arrived`);
    });

    it(`iperf3 ${version} -c, Longhaul's server: TCP -R -O 1, UDP -O 1 and -R`, async () => {
      assertHonest(await asServer(bin, ['-R', '-O', '1']), `${version} -c -R -O 1`);
      assertHonest(await asServer(bin, ['-u', '-b', '20M', '-l', '1200', '-O', '1']), `${version} -c -u -O 1`);
      assertHonest(await asServer(bin, ['-u', '-b', '20M', '-l', '1200', '-R']), `${version} -c -u -R`);
    });
  }
});

const write = Object.getOwnPropertyDescriptor(Iperf3Control.prototype, 'writeJson')!.value as (this: Iperf3Control, v: object, max: number) => void;
interface DocStream {
  bytes: number;
  packets: number;
}

/** Every results document Longhaul's iperf3 server writes (its control's peer is the client) is multiplied as `lie` says. */
function serverLies(lie: (s: DocStream) => DocStream): void {
  Iperf3Control.prototype.writeJson = function (this: Iperf3Control, v: object, max: number): void {
    const doc = v as { streams?: DocStream[] };
    // The server's control names its partner the iperf3 client (iperf3Partner).
    const fromServer = this.partner.startsWith('the iperf3 client');
    write.call(this, fromServer && doc.streams ? { ...doc, streams: doc.streams.map(lie) } : v, max);
  };
}

describe('a lying iperf3 peer (its results document × 1000)', { timeout: 60_000 }, () => {
  afterEach(() => {
    Iperf3Control.prototype.writeJson = write;
  });

  async function against(params: Partial<RunParams>): Promise<LonghaulResult> {
    const server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = await server.listen();
      return await startIperf3Run({ host: '127.0.0.1', port, params: { ...DEFAULT_PARAMS, streams: 2, bytes: null, seconds: 2, ...params } }).result;
    } finally {
      await server.close();
    }
  }

  it('TCP: bytes received × 1000 are rejected (received <= sent), -O or not', async () => {
    serverLies((s) => ({ ...s, bytes: s.bytes * 1000 }));
    for (const omitSeconds of [0, 1]) {
      const r = await against({ omitSeconds });
      assert.equal(r.partial, true);
      for (const s of r.streams) {
        const c = s.peerClaim;
        assert.ok(c?.bound === 'received <= sent' && c.side === 'responder' && c.view === 'receive', JSON.stringify(c));
        assert.equal(c.ownBytes, s.send?.bytes);
        assert.equal(s.bytes, s.send?.bytes, "this side's own bytes");
      }
      assert.match(r.errors.find((e) => e.code === 'LH_ERR_PEER_CLAIM')?.message ?? '', /the responder .*claimed/);
    }
  });

  it('UDP: packets × 1000 are rejected (its arrivals are its highest number less its lost); its bytes alone are not judged (iperf3 counts duplicates)', async () => {
    serverLies((s) => ({ ...s, packets: s.packets * 1000 }));
    const r = await against({ ...UDP });
    assert.equal(r.partial, true);
    for (const s of r.streams) assert.equal(s.peerClaim?.bound, 'arrived <= sent', JSON.stringify(s.peerClaim));
    serverLies((s) => ({ ...s, bytes: s.bytes * 2 }));
    const bytesOnly = await against({ ...UDP });
    assert.ok(
      bytesOnly.streams.every((s) => s.peerClaim === undefined),
      'an iperf3 UDP receiver may count a duplicated datagram twice: its bytes are no bound',
    );
  });
});
