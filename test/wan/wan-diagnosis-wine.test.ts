/**
 * The truth matrix's Windows rows (diagnosis-scenarios.ts, `receiverRuntime: 'wine'`): Longhaul's
 * Windows build under Wine listens in namespace B and receives, the Linux CLI in A sends with a small
 * window. The verdict comes from the Linux sender's TCP_INFO; the Windows end's own figures must be
 * labelled honestly: Wine 8.0 answers SIO_TCP_INFO with WSAEOPNOTSUPP, so its TCP readings are
 * "unknown" with the reason, never zeros. Needs root and the Windows lane (docs/windows-lane.md);
 * skips saying which is missing (a missing lane fails under CI). About 1 minute: node.exe starts slowly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSummary } from '../../electron/report/summary-block.js';
import { laneReady, useWindowsLane } from '../windows/wine-node.js';
import { SCENARIOS, runScenario } from './diagnosis-scenarios.js';
import { wanSkipReason } from './preflight.js';
import { assertScenarioVerdict } from './scenario-verdict.js';

const skip = (await wanSkipReason()) ?? false;

useWindowsLane();

describe('diagnosis truth matrix, Windows receiver under Wine', { skip, timeout: 300_000 }, () => {
  for (const s of SCENARIOS.filter((x) => x.receiverRuntime === 'wine')) {
    it(`${s.name} (${s.built}): ${s.expected}, advice on ${s.adviceTopic}`, { timeout: 150_000 }, async (t) => {
      if (!laneReady(t)) return;
      const r = await runScenario(s);
      const st = r.streams[0];
      assertScenarioVerdict(s, r, (line) => t.diagnostic(line));
      t.diagnostic(`responder ${JSON.stringify(r.responder.os)}; not measured: ${JSON.stringify(r.unavailable)}`);
      // The receiving end is the Windows build (Wine reports itself as win32), and its Winsock loop moved the bytes.
      const recv = st?.receive;
      assert.equal(recv?.side, 'responder');
      assert.equal(r.responder.os?.platform, 'win32', JSON.stringify(r.responder));
      assert.equal(recv?.io, 'native', "the Windows end received on the addon's Winsock loop");
      assert.equal(recv?.socket?.appliedBeforeHandshake, true, JSON.stringify(recv?.socket));
      // Its TCP figures: none made up. Where the Windows end gave no SIO_TCP_INFO (Wine 8.0: WSAEOPNOTSUPP),
      // it has no readings, its TCP_INFO-only socket figures are null, and the result and the summary say why.
      const summary = formatSummary(r);
      if (!recv?.socket?.tcpInfoSource) {
        assert.equal(recv?.tcp?.length ?? 0, 0, 'no readings without SIO_TCP_INFO');
        for (const k of ['sndMssBytes', 'rcvMssBytes', 'sndWscale', 'rcvWscale', 'wscaleNegotiated'] as const) assert.equal(recv?.socket?.[k], null, k);
        const why = (r.unavailable ?? []).find((u) => u.side === 'responder' && u.field === 'tcp');
        assert.match(why?.reason ?? '', /SIO_TCP_INFO/, JSON.stringify(r.unavailable));
        assert.match(summary, /Not measured \(.*responder: WSAIoctl\(SIO_TCP_INFO\)/);
      }
      // The verdict rests on the Linux sender's readings, which are there.
      assert.ok((st?.send?.tcp?.length ?? 0) > 0, "the Linux sender's TCP_INFO");
    });
  }
});
