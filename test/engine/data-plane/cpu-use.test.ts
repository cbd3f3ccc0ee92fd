/**
 * The CPU arithmetic, the wire schema and the words: threads grouped as they ran
 * (all senders of a worker share one thread), shares of one core and of the PC,
 * iperf3's percent of one core both ways, and the console line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuUnavailable, cpuUse, ProcessCpuClock, threadsOf } from '../../../electron/engine/data-plane/cpu-use.js';
import { peerCpu } from '../../../electron/engine/iperf3/iperf3-ends.js';
import { readResults, resultsDocument } from '../../../electron/protocol/iperf3/results-document.js';
import { parseMessage } from '../../../electron/protocol/messages.js';
import { formatCpuLines } from '../../../electron/report/cpu-lines.js';
import { parseResult } from '../../../electron/report/result-file.js';
import { makeResult } from '../../helpers/result-fixtures.js';

describe('CPU per side and per data thread', () => {
  it('streams that shared a thread are one thread, costed from its first take-on to its last end', () => {
    const threads = threadsOf('sender', [
      { id: 1, native: true, reading: { thread: 7, startNs: 1e9, endNs: 3e9 } },
      { id: 0, native: true, reading: { thread: 7, startNs: 1.5e9, endNs: 4e9 } },
      { id: 2, native: true, reading: { thread: 9, startNs: 0, endNs: 5e8 } },
    ]);
    assert.deepEqual(threads, [
      { kind: 'sender', streams: [0, 1], cpuSeconds: 3, waitSeconds: null },
      { kind: 'sender', streams: [2], cpuSeconds: 0.5, waitSeconds: null },
    ]);
  });

  it("a thread's run-queue wait over the same span; one unknown reading makes its wait unknown", () => {
    const threads = threadsOf('receiver', [
      { id: 0, native: true, reading: { thread: 4, startNs: 0, endNs: 1e8, waitStartNs: 2e8, waitEndNs: 4.7e9 } },
      { id: 1, native: true, reading: { thread: 5, startNs: 0, endNs: 1e8, waitStartNs: 0, waitEndNs: 1e9 } },
      { id: 2, native: true, reading: { thread: 5, startNs: 0, endNs: 1e8, waitStartNs: -1, waitEndNs: -1 } },
    ]);
    assert.deepEqual(
      threads?.map((t) => t.waitSeconds),
      [4.5, null],
    );
  });

  it('no threads where Node moved the bytes; unknown (null) when the OS did not give a thread its CPU time', () => {
    assert.equal(threadsOf('receiver', [{ id: 0, native: false, reading: null }]), null);
    assert.equal(threadsOf('receiver', [{ id: 0, native: true, reading: { thread: 3, startNs: -1, endNs: -1 } }]), null);
    // A Node-loop stream beside a native one: only the native thread is listed.
    assert.deepEqual(
      threadsOf('receiver', [
        { id: 0, native: false, reading: null },
        { id: 1, native: true, reading: { thread: 3, startNs: 0, endNs: 2e8 } },
      ]),
      [{ kind: 'receiver', streams: [1], cpuSeconds: 0.2, waitSeconds: null }],
    );
  });

  it('shares: of one core = CPU ÷ wall, of the PC = that ÷ cores; threads over the same wall', () => {
    const c = cpuUse(
      [
        { userSeconds: 0.5, systemSeconds: 1 },
        { userSeconds: 0.25, systemSeconds: 0.25 },
      ],
      4,
      [{ kind: 'sender', streams: [0], cpuSeconds: 1 }],
      8,
    );
    assert.equal(c.userSeconds, 0.75);
    assert.equal(c.systemSeconds, 1.25);
    assert.equal(c.shareOfOneCore, 0.5);
    assert.equal(c.shareOfPc, 0.0625);
    assert.deepEqual(c.threads, [{ kind: 'sender', streams: [0], cpuSeconds: 1, shareOfOneCore: 0.25 }]);
  });

  it("the process clock counts this process's CPU and wall time from its making", () => {
    const clock = new ProcessCpuClock();
    const end = Date.now() + 60;
    while (Date.now() < end) Math.sqrt(Math.random()); // busy: CPU time must show
    const e = clock.elapsed();
    assert.ok(e.wallSeconds >= 0.05 && e.wallSeconds < 5, String(e.wallSeconds));
    assert.ok(e.userSeconds + e.systemSeconds > 0.01, JSON.stringify(e));
  });

  it('a peer sends its CPU with its results; the schema keeps it and refuses nonsense', () => {
    const cpu = cpuUse([{ userSeconds: 1, systemSeconds: 1 }], 4, null, 2);
    const m = parseMessage({ type: 'results', streams: [], partial: false, reason: null, cpu });
    assert.deepEqual(m.type === 'results' ? m.cpu : null, cpu);
    assert.throws(() => parseMessage({ type: 'results', streams: [], partial: false, reason: null, cpu: { ...cpu, cores: 0 } }), /cpu\.cores/);
    assert.throws(() => parseMessage({ type: 'results', streams: [], partial: false, reason: null, cpu: { ...cpu, userSeconds: -1 } }), /cpu\.userSeconds/);
  });
});

describe('CPU figures that are missing say why', () => {
  it('no figures from the peer; no thread where Node moved the bytes; no thread time from the OS', () => {
    const r = makeResult({ streams: [{ bytes: 1e9, seconds: 1, completions: 10 }] });
    assert.deepEqual(cpuUnavailable(r), [], 'older results: nothing to say');
    r.streams[0]!.send!.io = 'node';
    r.streams[0]!.receive!.io = 'native';
    r.cpu = { controller: cpuUse([], 1, null, 2), responder: cpuUse([], 1, null, 2) };
    const why = cpuUnavailable(r);
    assert.deepEqual(
      why.map((u) => [u.side, u.field]),
      [
        ['controller', 'cpu.threads'],
        ['responder', 'cpu.threads'],
      ],
    );
    assert.match(why[0]!.reason, /Node's own loop moved/);
    assert.match(why[1]!.reason, /this OS did not give/);
    r.cpu = { controller: cpuUse([], 1, [{ kind: 'sender', streams: [0], cpuSeconds: 0.5 }], 2), responder: null };
    assert.deepEqual(
      cpuUnavailable(r).map((u) => [u.side, u.field, u.reason]),
      [['responder', 'cpu', 'the responder receiver-pc (192.0.2.10:5211) sent no CPU figures (an older Longhaul, or an iperf3 end that measured none)']],
    );
  });
});

describe('CPU in the iperf3 interop documents', () => {
  it("our results carry cpu_util as iperf3's cpu_util() counts it: percent of one core (not of the PC)", () => {
    const cpu = cpuUse([{ userSeconds: 0.5, systemSeconds: 1.5 }], 2, null, 4);
    const doc = resultsDocument([], false, null, cpu);
    assert.equal(doc.cpu_util_total, 100);
    assert.equal(doc.cpu_util_user, 25);
    assert.equal(doc.cpu_util_system, 75);
    assert.equal(resultsDocument([], false, null).cpu_util_total, 0, 'not measured: 0, as before');
  });

  it("the peer's figures become its side's CPU; all zeros mean it measured nothing", () => {
    const doc = { cpu_util_total: 150, cpu_util_user: 50, cpu_util_system: 100, sender_has_retransmits: 1, streams: [] };
    const c = peerCpu(readResults(doc, 1), 2);
    assert.deepEqual(c, { userSeconds: 1, systemSeconds: 2, wallSeconds: 2, cores: 1, coresKnown: false, shareOfOneCore: 1.5, shareOfPc: 1.5, threads: null });
    assert.equal(peerCpu(readResults({ ...doc, cpu_util_total: 0, cpu_util_user: 0, cpu_util_system: 0 }, 1), 2), null);
  });
});

describe('the CPU line of the console report', () => {
  it("reads like iperf3's, then each side's share of its PC and its threads", () => {
    const r = makeResult({ streams: [{ bytes: 1e9, seconds: 1, completions: 10 }] });
    assert.deepEqual(formatCpuLines(r), [], 'older results: no line');
    r.cpu = {
      controller: cpuUse([{ userSeconds: 0.1, systemSeconds: 0.9 }], 2, [{ kind: 'sender', streams: [0], cpuSeconds: 0.8 }], 4),
      responder: null,
    };
    assert.equal(parseResult(JSON.parse(JSON.stringify(r)), 'r.json').cpu?.controller?.cores, 4, 'a saved result reads back with its CPU');
    assert.throws(
      () => parseResult({ ...r, cpu: { controller: { ...r.cpu!.controller, threads: 'x' }, responder: null } }, 'r.json'),
      /cpu\.controller\.threads/,
    );
    assert.deepEqual(formatCpuLines(r), [
      'CPU Utilization: local/sender 50.0% (5.0%u/45.0%s), remote/receiver unknown (the responder receiver-pc (192.0.2.10:5211) sent no CPU figures) (percent of one core, as iperf3 counts)',
      "  controller: 12.5% of the PC's 4 cores; data threads: sender thread (stream 0) 40.0% of one core",
    ]);
  });
});
