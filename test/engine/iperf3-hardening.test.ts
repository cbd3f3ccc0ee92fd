/**
 * Longhaul's iperf3 server against broken and hostile clients, with iperf3's own server
 * CVEs and hangs as the list; after every one of them the same server serves a real
 * `iperf3 -c` run. Short step deadlines keep each stall case within seconds (the streams
 * step leaves the data workers time to start on a loaded 2-core machine).
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import { makeCookie } from '../../electron/protocol/iperf3/cookie.js';
import { encodeJson, encodeState } from '../../electron/protocol/iperf3/reader.js';
import { IPERF3_STATE } from '../../electron/protocol/iperf3/states.js';
import type { LonghaulError } from '../../electron/util/errors.js';
import { HAVE_IPERF3, runIperf3 } from '../helpers/iperf3.js';

const PARAMS = { tcp: true, omit: 0, time: 1, num: 0, blockcount: 0, parallel: 1, len: 131072, client_version: '3.12' };

describe('iperf3 server hardening', { timeout: 60_000 }, () => {
  let server: Iperf3Server;
  let port = 0;
  const rejected: string[] = [];
  before(async () => {
    server = new Iperf3Server({
      port: 0,
      host: '127.0.0.1',
      cookieTimeoutMs: 300,
      timeoutsMs: { params: 300, streams: 3000, running: 400, results: 300, done: 300 },
    });
    server.on('rejected', (_peer, why) => rejected.push(why));
    port = (await server.listen()).port;
  });
  after(() => server.close());

  /** The next test's end: its error and result. */
  function nextEnd(): Promise<{ err: LonghaulError | null; result: LonghaulResult | null }> {
    return new Promise((resolve) => server.once('session-end', (result, err) => resolve({ err, result })));
  }

  /** A raw client: everything it receives until the server closes (bounded). */
  async function client(): Promise<{ socket: net.Socket; received: () => Buffer; closed: Promise<number> }> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    const t0 = Date.now();
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - t0)));
    return { socket, received: () => Buffer.concat(chunks), closed };
  }

  async function waitFor(bytes: number, c: { received: () => Buffer }, ms = 2000): Promise<Buffer> {
    const until = Date.now() + ms;
    while (c.received().length < bytes && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    return c.received();
  }

  async function assertFreeSoon(): Promise<void> {
    const until = Date.now() + 2000;
    while (server.busy && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.equal(server.busy, false, 'the server is free again');
  }

  it('a 0xFFFFFFFF parameters length: refused before anything is allocated, connection closed', async () => {
    const end = nextEnd();
    const c = await client();
    c.socket.write(makeCookie());
    assert.deepEqual([...(await waitFor(1, c))], [IPERF3_STATE.PARAM_EXCHANGE]);
    c.socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff]));
    const { err } = await end;
    assert.equal(err?.code, 'LH_ERR_FRAME_TOO_LARGE');
    assert.ok((await c.closed) < 2000);
    await assertFreeSoon();
  });

  it('a partial cookie, then silence: dropped at the cookie deadline, never a test', async () => {
    const c = await client();
    c.socket.write(makeCookie().subarray(0, 20));
    const ms = await c.closed;
    assert.ok(ms >= 250 && ms < 2000, `closed after ${ms} ms`);
    assert.match(rejected.at(-1) ?? '', /20 of the cookie's 37 bytes/);
    assert.equal(server.busy, false);
  });

  it('wrong JSON types in the parameters: SERVER_ERROR with iperf3\'s "unable to receive parameters" (114)', async () => {
    const end = nextEnd();
    const c = await client();
    c.socket.write(makeCookie());
    await waitFor(1, c);
    c.socket.write(encodeJson({ ...PARAMS, parallel: '8', title: 5 }, 8192));
    const got = await waitFor(10, c);
    assert.deepEqual([...got.subarray(0, 2)], [IPERF3_STATE.PARAM_EXCHANGE, 0xfe]);
    assert.equal(got.readInt32BE(2), 114);
    assert.equal((await end).err?.code, 'LH_ERR_IPERF3_PROTOCOL');
    await assertFreeSoon();
  });

  it('a results document where a length belongs ("{\\"cp…" read as 2 GB): refused, not awaited', async () => {
    const end = nextEnd();
    const c = await client();
    c.socket.write(makeCookie());
    await waitFor(1, c);
    c.socket.write(Buffer.from(JSON.stringify({ cpu_util_total: 1, streams: [] })));
    assert.equal((await end).err?.code, 'LH_ERR_FRAME_TOO_LARGE');
    await assertFreeSoon();
  });

  it('an unknown state byte while running: the test ends at once, partial, with what was measured', async () => {
    const end = nextEnd();
    const c = await client();
    const cookie = makeCookie();
    c.socket.write(cookie);
    await waitFor(1, c);
    c.socket.write(encodeJson(PARAMS, 8192));
    await waitFor(2, c);
    const data = net.connect(port, '127.0.0.1', () => data.write(cookie));
    data.on('error', () => undefined);
    await waitFor(4, c);
    c.socket.write(Buffer.from([0x7b]));
    const { err, result } = await end;
    data.destroy();
    assert.equal(err?.code, 'LH_ERR_IPERF3_PROTOCOL');
    assert.equal(result?.partial, true);
    await assertFreeSoon();
  });

  for (const stall of ['params', 'streams', 'running', 'results', 'done'] as const) {
    it(`a client that stalls at ${stall}: the test ends within its deadline and the server is free`, async () => {
      const end = nextEnd();
      const c = await client();
      const cookie = makeCookie();
      const t0 = Date.now();
      c.socket.write(cookie);
      await waitFor(1, c);
      let data: net.Socket | null = null;
      if (stall !== 'params') {
        c.socket.write(encodeJson(PARAMS, 8192));
        await waitFor(2, c);
      }
      if (stall !== 'params' && stall !== 'streams') {
        data = net.connect(port, '127.0.0.1', () => data!.write(cookie));
        data.on('error', () => undefined);
        assert.deepEqual([...(await waitFor(4, c)).subarray(2, 4)], [IPERF3_STATE.TEST_START, IPERF3_STATE.TEST_RUNNING]);
      }
      if (stall === 'results' || stall === 'done') {
        c.socket.write(encodeState(IPERF3_STATE.TEST_END));
        assert.equal((await waitFor(5, c))[4], IPERF3_STATE.EXCHANGE_RESULTS);
      }
      if (stall === 'done') {
        c.socket.write(
          encodeJson(
            {
              cpu_util_total: 0,
              cpu_util_user: 0,
              cpu_util_system: 0,
              sender_has_retransmits: 0,
              streams: [{ id: 1, bytes: 0, retransmits: 0, jitter: 0, errors: 0, packets: 0 }],
            },
            8192,
          ),
        );
      }
      const { err, result } = await end;
      data?.destroy();
      c.socket.destroy();
      assert.ok(Date.now() - t0 < 6000, `ended after ${Date.now() - t0} ms`);
      if (stall === 'done') {
        // Every figure was in: a client that never says IPERF_DONE costs nothing but a note.
        assert.equal(err, null);
        assert.ok(result?.errors.some((e) => e.code === 'LH_ERR_TIMEOUT'));
      } else {
        assert.equal(err?.code, 'LH_ERR_TIMEOUT', err?.message);
      }
      await assertFreeSoon();
    });
  }

  it('a second client while a test runs gets ACCESS_DENIED ("busy"); a vanished first client frees the server', async () => {
    const end = nextEnd();
    const first = await client();
    first.socket.write(makeCookie());
    await waitFor(1, first);
    const second = await client();
    second.socket.write(makeCookie());
    assert.deepEqual([...(await waitFor(1, second))], [0xff], 'ACCESS_DENIED (-1)');
    await second.closed;
    first.socket.destroy();
    assert.equal((await end).err?.code, 'LH_ERR_PEER_GONE');
    await assertFreeSoon();
  });

  it('a connection handler that fails ends that connection, not the process; the server serves the next client', async () => {
    // A 'session' listener that throws makes the accept handler's promise reject (commit 37ea34b's .catch):
    // unhandled, Node ends the process (the app's main process hosts this server too).
    const boom = (): never => {
      throw new Error('listener failed on purpose');
    };
    await assertFreeSoon();
    server.once('session', boom);
    const before = rejected.length;
    const end = nextEnd();
    const c = await client();
    c.socket.write(makeCookie());
    const closedAfterMs = await c.closed;
    assert.ok(closedAfterMs < 250, `closed at once by the handler's catch, not at the 300 ms parameters deadline (${closedAfterMs} ms)`);
    assert.ok(
      rejected.slice(before).some((r) => r.includes('internal error') && r.includes('listener failed on purpose')),
      `said why: ${rejected.slice(before).join('; ')}`,
    );
    assert.equal((await end).err?.code, 'LH_ERR_PEER_GONE', 'the half-started test ended as a lost client');
    await assertFreeSoon();
    const ok = await client();
    ok.socket.write(makeCookie());
    assert.deepEqual([...(await waitFor(1, ok))], [IPERF3_STATE.PARAM_EXCHANGE], 'the next client is served');
    ok.socket.destroy();
    await assertFreeSoon();
  });

  it(
    'a UDP test whose streams never say hello, then stray datagrams: ended at the streams deadline, the port freed, the next -u client served',
    { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' },
    async () => {
      const end = nextEnd();
      const c = await client();
      c.socket.write(makeCookie());
      assert.deepEqual([...(await waitFor(1, c))], [IPERF3_STATE.PARAM_EXCHANGE]);
      c.socket.write(encodeJson({ ...PARAMS, tcp: undefined, udp: true, len: 1200, bandwidth: 1_000_000 }, 8192));
      assert.deepEqual([...(await waitFor(2, c))].slice(1), [IPERF3_STATE.CREATE_STREAMS], 'the UDP listener is bound, the streams asked for');
      // Strangers on the UDP port: not a connect message (dropped), nothing a stream is made of.
      const stray = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => stray.send(Buffer.from('not a connect message'), port, '127.0.0.1', () => resolve()));
      stray.close();
      const { err } = await end;
      assert.equal(err?.code, 'LH_ERR_TIMEOUT');
      assert.match(err?.message ?? '', /opened 0 of 1 UDP streams/);
      await assertFreeSoon();
      const ended = nextEnd();
      const run = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-u', '-b', '5M', '-t', '1', '-J'], 15_000);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.json?.error, undefined, 'the port was free again for the next UDP test');
      const next = await ended;
      assert.equal(next.err, null);
      assert.equal(next.result?.params.protocol, 'udp');
    },
  );

  it(
    'refuses an unpaced iperf3 -u -b 0 -R (this server would send) with a message iperf3 prints, then serves a real iperf3 -c run',
    { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' },
    async () => {
      const udp = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-u', '-b', '0', '-R', '-t', '1', '-J'], 15_000);
      assert.match(udp.json?.error ?? '', /not implemented/);
      const ended = nextEnd();
      const run = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-t', '1', '-J'], 15_000);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.json?.error, undefined);
      const { err, result } = await ended;
      assert.equal(err, null);
      assert.ok(result && !result.partial && result.total.bytes > 0);
    },
  );
});
