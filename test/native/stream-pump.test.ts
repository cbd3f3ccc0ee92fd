/**
 * The addon's byte loop (native/src/stream_pump.cc) on real loopback sockets:
 * exact byte budgets, the deadline, stop(), the peer's FIN, a reset peer
 * (an error with errno, never SIGPIPE), a Node socket closed under it, and -Z (sendfile(2)).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, it } from 'node:test';
import type { NativePump, PumpEndReason, PumpOptions } from '../../electron/native/native-api.js';
import { socketFd } from '../../electron/native/node-handle.js';
import { closeServer, listenLocal, requireNative, skipWithoutNative } from '../helpers/native.js';
import { within } from '../helpers/net.js';

const opts = { timeout: 20_000, skip: skipWithoutNative };

interface Ended {
  err: NodeJS.ErrnoException | null;
  reason: PumpEndReason;
  ms: number;
}

function startPump(socket: net.Socket, o: PumpOptions): { pump: NativePump; ended: Promise<Ended> } {
  const api = requireNative();
  const t0 = performance.now();
  let pump: NativePump | null = null;
  const ended = new Promise<Ended>((resolve) => {
    pump = api.startPump(socketFd(socket)!, o, (err, reason) => resolve({ err, reason, ms: performance.now() - t0 }));
  });
  assert.ok(pump, 'startPump returned a loop');
  return { pump: pump!, ended };
}

/** A connected pair on 127.0.0.1. The accepted socket never reads through Node unless resumed (as in the engine, the loop must be its only reader). */
async function pair(): Promise<{ client: net.Socket; server: net.Socket; close: () => Promise<void> }> {
  let accepted!: (s: net.Socket) => void;
  const acceptedP = new Promise<net.Socket>((r) => (accepted = r));
  const { server: listener, port } = await listenLocal((s) => accepted(s), { pauseOnConnect: true });
  const client = net.connect({ host: '127.0.0.1', port });
  await within(new Promise((r) => client.once('connect', r)), 5000, 'connect');
  const server = await within(acceptedP, 5000, 'accept');
  return {
    client,
    server,
    close: async () => {
      client.destroy();
      server.destroy();
      await closeServer(listener);
    },
  };
}

type Pair = Awaited<ReturnType<typeof pair>>;

/** Run `body` with a fresh connected pair, closed afterwards whatever happens. */
async function withPair(body: (p: Pair) => Promise<void>): Promise<void> {
  const p = await pair();
  try {
    await body(p);
  } finally {
    await p.close();
  }
}

/** Read everything a socket gets until its FIN: byte count and SHA-256. */
function drain(socket: net.Socket): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  return new Promise((resolve, reject) => {
    socket.on('data', (d: Buffer) => {
      bytes += d.length;
      hash.update(d);
    });
    socket.once('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
    socket.once('error', reject);
    socket.resume();
  });
}

describe('native byte loop', () => {
  it('sender: an odd byte budget arrives exactly, in ceil(budget / buffer) writes of the 0x5a pattern', opts, async () => {
    await withPair(async (p) => {
      const budget = 10_000_001;
      const received = drain(p.server);
      const { pump, ended } = startPump(p.client, { role: 'send', bufferBytes: 128 * 1024, budgetBytes: budget });
      const end = await within(ended, 10_000, 'sender loop end');
      assert.equal(end.err, null);
      assert.equal(end.reason, 'budget');
      const [bytes, completions, firstNs, lastNs, running] = pump.snapshot();
      assert.equal(bytes, budget);
      assert.equal(completions, Math.ceil(budget / (128 * 1024)));
      assert.equal(running, false);
      assert.ok(firstNs > 0n && lastNs >= firstNs, 'first and last write times');
      const now = process.hrtime.bigint();
      assert.ok(now - lastNs < 5_000_000_000n && now >= lastNs, "times are on process.hrtime.bigint()'s clock");
      p.client.end();
      const got = await within(received, 10_000, 'receiver drain');
      assert.equal(got.bytes, budget);
      assert.equal(got.sha256, createHash('sha256').update(Buffer.alloc(budget, 0x5a)).digest('hex'));
    });
  });

  it('sender: the deadline ends a loop that the peer does not read (window full), within 100 ms of it', opts, async () => {
    await withPair(async (p) => {
      // Nobody reads the accepted socket: the sender blocks once the buffers are full.
      const deadlineNs = process.hrtime.bigint() + 300_000_000n;
      const { pump, ended } = startPump(p.client, { role: 'send', bufferBytes: 64 * 1024, deadlineNs });
      const end = await within(ended, 5000, 'deadline');
      assert.equal(end.reason, 'deadline');
      assert.ok(end.ms >= 290 && end.ms < 400, `ended ${end.ms.toFixed(0)} ms after the start, deadline at 300 ms`);
      assert.ok(pump.snapshot()[0] > 0, 'it wrote until the buffers were full');
    });
  });

  it(
    "names its threads lh-send and lh-recv, so top -H, perf and ps -L tell them from Node's (Linux)",
    { ...opts, skip: opts.skip || (process.platform !== 'linux' && 'thread names are read from /proc') },
    async () => {
      await withPair(async (p) => {
        const names = (): string[] => readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
        const before = names();
        const sender = startPump(p.client, { role: 'send', bufferBytes: 64 * 1024 });
        const receiver = startPump(p.server, { role: 'receive', bufferBytes: 64 * 1024 });
        // Both loops run once the receiver has read something: then both threads exist and have named themselves.
        for (let i = 0; i < 50 && receiver.pump.snapshot()[0] === 0; i++) await new Promise((r) => setTimeout(r, 20));
        const during = names();
        sender.pump.stop();
        receiver.pump.stop();
        await within(Promise.all([sender.ended, receiver.ended]), 2000, 'both stopped');
        assert.ok(!before.includes('lh-recv'), 'no receiving loop before');
        assert.ok(during.includes('lh-send'), `a thread named lh-send among ${during.join(', ')}`);
        assert.ok(during.includes('lh-recv'), `a thread named lh-recv among ${during.join(', ')}`);
      });
    },
  );

  it('stop() ends a blocked sender and a waiting receiver within 100 ms', opts, async () => {
    await withPair(async (p) => {
      const sender = startPump(p.client, { role: 'send', bufferBytes: 64 * 1024 });
      const receiver = startPump(p.server, { role: 'receive', bufferBytes: 64 * 1024 });
      // The receiver's loop now drains what the sender writes: let both run, then stop both.
      await new Promise((r) => setTimeout(r, 200));
      const moved = receiver.pump.snapshot()[0];
      assert.ok(moved > 1_000_000, `the loops moved ${moved} bytes in 200 ms`);
      const t = performance.now();
      sender.pump.stop();
      receiver.pump.stop();
      const [s, r] = await within(Promise.all([sender.ended, receiver.ended]), 2000, 'both stopped');
      assert.equal(s.reason, 'stopped');
      assert.equal(r.reason, 'stopped');
      assert.ok(performance.now() - t < 150, `stopped in ${(performance.now() - t).toFixed(0)} ms`);
      assert.ok(receiver.pump.snapshot()[1] > 0, 'read completions counted');
    });
  });

  it("receiver: counts what arrives, exactly, and ends on the peer's FIN", opts, async () => {
    await withPair(async (p) => {
      const { pump, ended } = startPump(p.server, { role: 'receive', bufferBytes: 128 * 1024 });
      const chunk = Buffer.alloc(777_777, 1);
      for (let i = 0; i < 13; i++) if (!p.client.write(chunk)) await new Promise((r) => p.client.once('drain', r));
      p.client.end();
      const end = await within(ended, 10_000, 'receiver loop end');
      assert.equal(end.err, null);
      assert.equal(end.reason, 'eof');
      const [bytes, completions, firstNs, lastNs] = pump.snapshot();
      assert.equal(bytes, 13 * 777_777);
      assert.ok(completions >= Math.ceil(bytes / (128 * 1024)), `${completions} reads of at most 128 KiB`);
      assert.ok(firstNs > 0n && lastNs >= firstNs);
    });
  });

  it('a reset peer ends the sender with an error carrying errno (EPIPE/ECONNRESET), not a signal', opts, async () => {
    await withPair(async (p) => {
      const clientErrors: Error[] = [];
      p.client.on('error', (e) => clientErrors.push(e)); // Node sees the reset too (it watches for the FIN)
      const { ended } = startPump(p.client, { role: 'send', bufferBytes: 64 * 1024 });
      await new Promise((r) => setTimeout(r, 100));
      p.server.resetAndDestroy();
      const end = await within(ended, 5000, 'sender error');
      assert.equal(end.reason, 'error');
      assert.ok(end.err && typeof end.err.errno === 'number', 'errno');
      assert.match(end.err.message, /^send: /);
    });
  });

  it('the Node socket may be destroyed while the loop runs: the loop keeps its own descriptor and ends cleanly', opts, async () => {
    await withPair(async (p) => {
      const { pump, ended } = startPump(p.server, { role: 'receive', bufferBytes: 64 * 1024 });
      p.server.destroy(); // closes Node's descriptor; the loop reads its dup
      p.client.write(Buffer.alloc(100_000, 2));
      p.client.end();
      const end = await within(ended, 5000, 'receiver end');
      assert.equal(end.reason, 'eof');
      assert.equal(pump.snapshot()[0], 100_000);
    });
  });

  it('three senders share one thread: each budget exact, one stopped and one reset without disturbing the others', opts, async () => {
    const pairs = await Promise.all([pair(), pair(), pair(), pair()]);
    try {
      const budgets = [3_000_001, 7_654_321];
      const received = budgets.map((_, i) => drain(pairs[i]!.server));
      const exact = budgets.map((b, i) => startPump(pairs[i]!.client, { role: 'send', bufferBytes: 100_000, budgetBytes: b }));
      // Two endless senders nobody reads: one is stopped, the other's peer resets.
      pairs[3]!.client.on('error', () => {});
      const stopped = startPump(pairs[2]!.client, { role: 'send', bufferBytes: 100_000 });
      const reset = startPump(pairs[3]!.client, { role: 'send', bufferBytes: 100_000 });
      await new Promise((r) => setTimeout(r, 100));
      stopped.pump.stop();
      pairs[3]!.server.resetAndDestroy();
      const ends = await within(Promise.all([...exact.map((e) => e.ended), stopped.ended, reset.ended]), 10_000, 'all four loops end');
      assert.deepEqual(
        ends.map((e) => e.reason),
        ['budget', 'budget', 'stopped', 'error'],
      );
      for (const [i, b] of budgets.entries()) {
        assert.equal(exact[i]!.pump.snapshot()[0], b);
        assert.equal(exact[i]!.pump.snapshot()[1], Math.ceil(b / 100_000));
        pairs[i]!.client.end();
        assert.equal((await within(received[i]!, 10_000, `drain ${i}`)).bytes, b);
      }
      assert.ok(stopped.pump.snapshot()[0] > 0);
    } finally {
      await Promise.all(pairs.map((p) => p.close()));
    }
  });

  it('batched reads never stall: after a full-speed burst, single 1000-byte writes are each counted within 300 ms', opts, async () => {
    await withPair(async (p) => {
      const { pump, ended } = startPump(p.server, { role: 'receive', bufferBytes: 128 * 1024, batchReads: true });
      // A 0.5 s burst at full speed: the loop measures a high rate and batches.
      const until = performance.now() + 500;
      let burst = 0;
      const chunk = Buffer.alloc(128 * 1024, 3);
      while (performance.now() < until) {
        burst += chunk.length;
        if (!p.client.write(chunk)) await new Promise((r) => p.client.once('drain', r));
      }
      await within(
        (async () => {
          while (pump.snapshot()[0] < burst) await new Promise((r) => setTimeout(r, 10));
        })(),
        5000,
        'burst counted',
      );
      // (How much batching saves is a benchmark's business: npm run bench.)
      // Now single small writes: each must show up promptly although it is far below the threshold.
      for (let i = 1; i <= 3; i++) {
        p.client.write(Buffer.alloc(1000, 4));
        const t = performance.now();
        await within(
          (async () => {
            while (pump.snapshot()[0] < burst + i * 1000) await new Promise((r) => setTimeout(r, 5));
          })(),
          2000,
          `trickle ${i}`,
        );
        assert.ok(performance.now() - t < 300, `trickle ${i} counted after ${(performance.now() - t).toFixed(0)} ms`);
      }
      p.client.end();
      assert.equal((await within(ended, 5000, 'eof')).reason, 'eof');
      assert.equal(pump.snapshot()[0], burst + 3000);
    });
  });

  it('bad options are a TypeError, not a crash', opts, () => {
    const api = requireNative();
    assert.throws(() => api.startPump(0, { role: 'send', bufferBytes: 0 }, () => {}), TypeError);
    assert.throws(() => api.startPump(-1 as number, { role: 'send', bufferBytes: 1024 }, () => {}), /dup/);
  });
});

describe('native byte loop: -Z (zeroCopy)', () => {
  const linux = process.platform === 'linux';

  it('sendfile(2) from the payload file: an odd budget over buffers that do not divide it arrives exactly, the same 0x5a bytes', opts, async () => {
    await withPair(async (p) => {
      const budget = 3_000_017;
      const bufferBytes = 1024 * 1024;
      const received = drain(p.server);
      const { pump, ended } = startPump(p.client, { role: 'send', bufferBytes, budgetBytes: budget, zeroCopy: true });
      const end = await within(ended, 10_000, 'sender loop end');
      assert.equal(end.err, null);
      assert.equal(end.reason, 'budget');
      const snap = pump.snapshot();
      assert.equal(snap[0], budget);
      assert.equal(snap[1], Math.ceil(budget / bufferBytes), 'one completion per buffer, as copying');
      if (linux) assert.deepEqual([snap[10], snap[11]], ['sendfile', null]);
      else assert.equal(snap[10], 'copy');
      p.client.end();
      const got = await within(received, 10_000, 'receiver drain');
      assert.equal(got.bytes, budget);
      assert.equal(got.sha256, createHash('sha256').update(Buffer.alloc(budget, 0x5a)).digest('hex'));
    });
  });

  it('elsewhere than Linux it copies and says why', { ...opts, skip: linux ? 'Linux sends with sendfile(2)' : opts.skip }, async () => {
    await withPair(async (p) => {
      const { pump, ended } = startPump(p.client, { role: 'send', bufferBytes: 4096, budgetBytes: 10_000, zeroCopy: true });
      await within(ended, 10_000, 'sender loop end');
      assert.equal(pump.snapshot()[10], 'copy');
      assert.match(String(pump.snapshot()[11]), /^-Z on /);
    });
  });

  it('without zeroCopy the loop copies and gives no reason', opts, async () => {
    await withPair(async (p) => {
      const received = drain(p.server);
      const { pump, ended } = startPump(p.client, { role: 'send', bufferBytes: 64 * 1024, budgetBytes: 100_000 });
      await within(ended, 10_000, 'sender loop end');
      assert.deepEqual([pump.snapshot()[10], pump.snapshot()[11]], ['copy', null]);
      p.client.end();
      assert.equal((await within(received, 10_000, 'receiver drain')).bytes, 100_000);
    });
  });

  it(
    'a reset peer ends a sendfile(2) sender with an error carrying errno, not SIGPIPE',
    { ...opts, skip: linux ? opts.skip : 'sendfile is Linux only' },
    async () => {
      await withPair(async (p) => {
        p.client.on('error', () => {}); // Node sees the reset too
        const { ended } = startPump(p.client, { role: 'send', bufferBytes: 64 * 1024, zeroCopy: true });
        await new Promise((r) => setTimeout(r, 100));
        p.server.resetAndDestroy();
        const end = await within(ended, 5000, 'sender error');
        assert.equal(end.reason, 'error');
        assert.ok(end.err && typeof end.err.errno === 'number', 'errno');
        assert.match(end.err.message, /^sendfile: /);
      });
    },
  );
});
