/**
 * A UDP partner that lies, on real sockets on 127.0.0.1 (as test/engine/peer-claim.test.ts does for TCP:
 * the control channel's send is wrapped for the liar's role only). A lying receiver claims × 1000 the
 * datagrams and bytes that arrived, or more lost than were sent; a lying sender claims 1/1000 of what it
 * sent. The honest end knows its own side: the datagrams it sent bound what arrived and was lost; the
 * ones that arrived here bound what the partner must have sent. Forward and reverse, both ends; an honest
 * partner's UDP runs are unchanged.
 */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import type { LonghaulResult, Side } from '../../electron/contract/result.js';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { ControlChannel } from '../../electron/protocol/control-channel.js';
import type { Message, StreamEnd } from '../../electron/protocol/messages.js';
import { formatCompactSummary } from '../../electron/report/compact-summary.js';
import { formatCsv } from '../../electron/report/csv-report.js';
import { startResponder, within } from '../helpers/net.js';

const LIE = 1000;
const send = Object.getOwnPropertyDescriptor(ControlChannel.prototype, 'send')!.value as (this: ControlChannel, m: Message) => void;

type Lie = 'arrived' | 'lost' | 'arrived-samples' | 'sent';

/** A receiving end's report, lying as `lie` says. */
function lyingReceive(e: StreamEnd, lie: Lie): StreamEnd {
  const c = e.udp?.counts;
  if (e.role !== 'receive' || !c) return e;
  if (lie === 'lost') return { ...e, udp: { ...e.udp, counts: { ...c, lost: c.lost + (c.datagrams + c.lost) * 2 } } };
  if (lie !== 'arrived') return e;
  const counts = { ...c, datagrams: c.datagrams * LIE, bytes: c.bytes * LIE };
  return { ...e, bytes: e.bytes * LIE, completions: e.completions * LIE, udp: { ...e.udp, counts } };
}

/** A sending end's report claiming 1/LIE of what it sent. */
function lyingSend(e: StreamEnd): StreamEnd {
  if (e.role !== 'send') return e;
  const lastSeq = Math.floor((e.udp?.lastSeq ?? 0) / LIE);
  return { ...e, bytes: Math.floor(e.bytes / LIE), completions: Math.floor(e.completions / LIE), udp: { ...e.udp, lastSeq } };
}

function lieAs(role: Side, lie: Lie): void {
  ControlChannel.prototype.send = function (this: ControlChannel, m: Message): void {
    if (this.machine.role === role && m.type === 'results') m = { ...m, streams: m.streams.map((e) => (lie === 'sent' ? lyingSend(e) : lyingReceive(e, lie))) };
    if (this.machine.role === role && m.type === 'sample' && lie === 'arrived-samples' && m.udp)
      m = { ...m, udp: m.udp.map(([id, c]): [number, typeof c] => [id, { ...c, datagrams: c.datagrams * LIE, bytes: c.bytes * LIE }]) };
    send.call(this, m);
  };
}

const responders: Responder[] = [];
afterEach(() => {
  ControlChannel.prototype.send = send;
});
after(async () => {
  await Promise.all(responders.map((r) => r.close()));
});

const UDP: Partial<RunParams> = { protocol: 'udp', streams: 2, bufferBytes: 1200, bitrateBitsPerSec: 8e6, bytes: null, seconds: 1, intervalSeconds: 0.25 };

async function run(direction: 'forward' | 'reverse'): Promise<Record<Side, LonghaulResult>> {
  const { responder, port, security } = await startResponder();
  responders.push(responder);
  const ended = new Promise<LonghaulResult | null>((resolve) => responder.once('session-end', (r) => resolve(r)));
  const r = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, ...UDP, direction } });
  const controller = await within(r.result, 30_000, 'the run');
  const mine = await within(ended, 5_000, "the responder's end");
  assert.ok(mine, "the responder's result");
  return { controller, responder: mine };
}

/** Partial, one LH_ERR_PEER_CLAIM per stream naming the liar, and the reports say so. */
function assertFlagged(r: LonghaulResult, liar: Side): void {
  assert.equal(r.partial, true);
  const errors = r.errors.filter((e) => e.code === 'LH_ERR_PEER_CLAIM');
  assert.equal(errors.length, 2, 'one per stream');
  assert.ok(errors[0]?.message.includes(`the ${liar} ${r[liar].hostname} (${r[liar].address}) claimed`), errors[0]?.message);
  for (const text of [formatCompactSummary(r), formatCsv(r)]) assert.match(text, /LH_ERR_PEER_CLAIM|claimed figures this PC's own measurement rules out/);
}

/** The honest sender's view of a lying receiver: its own datagrams and bytes, the claim rejected with the bound named. */
function assertReceiverRejected(r: LonghaulResult, liar: Side, bound: 'arrived <= sent' | 'arrived + lost <= sent', where = 'end report'): void {
  for (const s of r.streams) {
    const sent = s.send;
    assert.ok(sent && sent.bytes > 0, `stream ${s.id}: what this end sent`);
    assert.equal(s.receive, null, `stream ${s.id}: the claimed view is gone`);
    assert.equal(s.udp, undefined, `stream ${s.id}: no claimed counts`);
    assert.equal(s.bytes, sent.bytes);
    const c = s.peerClaim;
    assert.ok(c && c.bound === bound, JSON.stringify(c));
    assert.equal(c.side, liar);
    assert.equal(c.view, 'receive');
    assert.equal(c.in, where);
    assert.ok(c.ownDatagrams >= sent.completions && sent.completions > 0, 'the datagrams this end sent: its last number');
    assert.ok(c.claimedDatagrams > c.ownDatagrams, `${c.claimedDatagrams} > ${c.ownDatagrams}`);
  }
  for (const iv of r.intervals) for (const st of iv.streams) assert.ok(st.receivedBytes === null && st.udp === undefined, `interval ${iv.index}`);
  assert.equal(
    r.total.bytes,
    r.streams.reduce((a, s) => a + (s.send?.bytes ?? 0), 0),
  );
  assertFlagged(r, liar);
}

describe('a UDP partner whose counts this side knows to be impossible', { timeout: 120_000 }, () => {
  it('a receiver claiming × 1000 the datagrams that arrived: rejected as arrived <= sent, forward and reverse', async () => {
    lieAs('responder', 'arrived');
    assertReceiverRejected((await run('forward')).controller, 'responder', 'arrived <= sent');
    lieAs('controller', 'arrived');
    assertReceiverRejected((await run('reverse')).responder, 'controller', 'arrived <= sent');
  });

  it('a receiver claiming more lost than were sent: rejected as arrived + lost <= sent', async () => {
    lieAs('responder', 'lost');
    assertReceiverRejected((await run('forward')).controller, 'responder', 'arrived + lost <= sent');
  });

  it('only its live figures lie: the per-interval bound rejects them', async () => {
    lieAs('controller', 'arrived-samples');
    assertReceiverRejected((await run('reverse')).responder, 'controller', 'arrived + lost <= sent', 'interval sample');
  });

  it('a sender claiming 1/1000 of what it sent: the receiving end keeps what arrived, both directions', async () => {
    for (const [direction, liar, honest] of [
      ['forward', 'controller', 'responder'],
      ['reverse', 'responder', 'controller'],
    ] as const) {
      lieAs(liar, 'sent');
      const r = (await run(direction))[honest];
      for (const s of r.streams) {
        const c = s.peerClaim;
        assert.ok(c && c.bound === 'arrived <= sent' && c.view === 'send' && c.side === liar, `${direction}: ${JSON.stringify(c)}`);
        assert.ok(c.ownDatagrams > c.claimedDatagrams);
        assert.equal(s.send, null, 'the claimed view is gone');
        assert.ok(s.receive && s.bytes === s.receive.bytes && s.bytes > 0, "this end's own bytes");
        assert.equal(s.udp?.lastSeq, null, "the liar's last number is not believed");
      }
      assertFlagged(r, liar);
    }
  });

  it('an honest partner: both directions, both ends unchanged, nothing rejected', async () => {
    for (const direction of ['forward', 'reverse'] as const) {
      const ends = await run(direction);
      for (const r of [ends.controller, ends.responder]) {
        assert.equal(r.partial, false, r.partialReason ?? '');
        assert.ok(
          r.streams.every((s) => s.peerClaim === undefined && s.send && s.receive && s.udp),
          direction,
        );
        assert.ok(r.total.bytes > 0);
      }
    }
  });
});
