/**
 * A partner that lies about what it received, on real sockets on 127.0.0.1: the liar's end sends
 * its samples and its end-of-run report with every received byte count × 1000 (as a tampered peer
 * would on the wire; here the control channel's send is wrapped for the liar's role only). The
 * honest end knows what it sent itself: a receiver cannot read more than that. Forward with a lying
 * responder, and the mirror, reverse with a lying controller: the honest end's result keeps its own
 * sending figures, rejects the claim naming the partner and the bound, drops the claimed interval
 * figures, is partial with LH_ERR_PEER_CLAIM; the same runs with an honest partner are unchanged.
 */
import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { ControlChannel } from '../../electron/protocol/control-channel.js';
import type { Message } from '../../electron/protocol/messages.js';
import { formatCompactSummary } from '../../electron/report/compact-summary.js';
import { formatConsoleLog } from '../../electron/report/console-log.js';
import { formatCsv } from '../../electron/report/csv-report.js';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { formatSummary } from '../../electron/report/summary-block.js';
import { startResponder, within } from '../helpers/net.js';

const LIE = 1000;
const send = Object.getOwnPropertyDescriptor(ControlChannel.prototype, 'send')!.value as (this: ControlChannel, m: Message) => void;

/** Make every channel of `role` multiply what it says it received by LIE (only in its samples: the live figures). */
function lieAs(role: 'controller' | 'responder', samplesOnly = false): void {
  ControlChannel.prototype.send = function (this: ControlChannel, m: Message): void {
    if (this.machine.role === role && m.type === 'results' && !samplesOnly)
      m = { ...m, streams: m.streams.map((e) => (e.role === 'receive' ? { ...e, bytes: e.bytes * LIE } : e)) };
    if (this.machine.role === role && m.type === 'sample') m = { ...m, streams: m.streams.map(([id, b, c]) => [id, b * LIE, c] as [number, number, number]) };
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

async function run(params: Partial<RunParams>): Promise<{ controller: LonghaulResult; responder: LonghaulResult }> {
  const { responder, port, security } = await startResponder();
  responders.push(responder);
  const ended = new Promise<LonghaulResult | null>((resolve) => responder.once('session-end', (r) => resolve(r)));
  const r = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, streams: 2, bytes: 20_000_000, seconds: null, ...params } });
  const controller = await within(r.result, 30_000, 'the run');
  const mine = await within(ended, 5_000, "the responder's end");
  assert.ok(mine, "the responder's result");
  return { controller, responder: mine };
}

/** The honest end's view of a run whose receiver lied: its own sending figures, the claim rejected and named. */
function assertRejected(r: LonghaulResult, liar: 'controller' | 'responder', where: 'end report' | 'interval sample' = 'end report'): void {
  const sent = r.streams.reduce((a, s) => a + (s.send?.bytes ?? 0), 0);
  assert.equal(sent, 20_000_000, 'what this end sent, exactly');
  assert.equal(r.total.bytes, sent, 'the total is what this end sent, not the claim');
  assert.ok(r.total.bitsPerSecond !== null && r.total.bitsPerSecond < 1e12, `a rate from this end's own times: ${r.total.bitsPerSecond}`);
  for (const s of r.streams) {
    assert.equal(s.receive, null, `stream ${s.id}: the claimed view is gone`);
    // The end report claims its whole count × LIE; the samples, their largest cumulative count (at most the whole).
    const claimed = s.peerClaim?.bound === 'received <= sent' ? s.peerClaim.claimedBytes : 0;
    assert.ok(
      where === 'end report' ? claimed === (s.send?.bytes ?? 0) * LIE : claimed > (s.send?.bytes ?? 0) && claimed <= (s.send?.bytes ?? 0) * LIE,
      `${claimed}`,
    );
    assert.deepEqual(s.peerClaim, { side: liar, view: 'receive', claimedBytes: claimed, bound: 'received <= sent', ownBytes: s.send?.bytes, in: where });
  }
  for (const iv of r.intervals) for (const st of iv.streams) assert.equal(st.receivedBytes, null, `interval ${iv.index}: no claimed bytes`);
  assert.equal(r.partial, true);
  const errors = r.errors.filter((e) => e.code === 'LH_ERR_PEER_CLAIM');
  assert.equal(errors.length, 2, 'one per stream');
  const peer = r[liar];
  assert.ok(errors[0]?.message.includes(`the ${liar} ${peer.hostname} (${peer.address}) claimed`), errors[0]?.message);
  assert.match(r.partialReason ?? '', /LH_ERR_PEER_CLAIM/);
  // Every report renders it, and says so: the console log, the answer, the explained summary, the CSV, the HTML.
  for (const [name, text] of [
    ['console log', formatConsoleLog(r)],
    ['answer', formatCompactSummary(r)],
    ['--explain', formatSummary(r)],
    ['csv', formatCsv(r)],
    ['html', formatHtmlReport(r)],
  ] as const)
    assert.match(text, /LH_ERR_PEER_CLAIM|claimed figures this PC's own measurement rules out/, `${name} says the claim was rejected`);
}

describe('a partner that claims to have received more than was sent', { timeout: 90_000 }, () => {
  it('forward, a lying responder: the controller keeps what it sent, rejects the claim and says whose', async () => {
    lieAs('responder');
    const { controller } = await run({ direction: 'forward' });
    assertRejected(controller, 'responder');
  });

  it('reverse, a lying controller: the responder keeps what it sent, rejects the claim and says whose', async () => {
    lieAs('controller');
    const { responder, controller } = await run({ direction: 'reverse' });
    assertRejected(responder, 'controller');
    assert.equal(controller.streams[0]?.peerClaim, undefined, "the liar's own result holds its own true counts");
  });

  it('only its live figures lie (each interval × 1000, an honest end report): the per-interval bound rejects them, both directions', async () => {
    lieAs('responder', true);
    assertRejected((await run({ direction: 'forward' })).controller, 'responder', 'interval sample');
    lieAs('controller', true);
    assertRejected((await run({ direction: 'reverse' })).responder, 'controller', 'interval sample');
  });

  it('an honest partner: both directions unchanged, nothing rejected', async () => {
    for (const direction of ['forward', 'reverse'] as const) {
      const { controller, responder } = await run({ direction });
      for (const r of [controller, responder]) {
        assert.equal(r.partial, false, r.partialReason ?? '');
        assert.equal(r.total.bytes, 20_000_000);
        assert.ok(r.streams.every((s) => s.peerClaim === undefined && s.receive?.bytes === s.send?.bytes));
      }
    }
  });
});
