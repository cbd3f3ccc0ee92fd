/**
 * UDP through two data planes, as a run's two ends hold them (real worker processes, loopback,
 * port 0): the receiving plane binds, the sending plane aims at its ports, both start, the senders
 * end at the deadline, the receivers are told each sender's last number and end. Every numbered
 * datagram is accounted for, the rate is the asked one (or the sender says by how much it fell
 * short), samples carry the receivers' UDP counts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planStreams } from '../../../electron/contract/stream-plan.js';
import { DataPlane, type SideSample } from '../../../electron/engine/data-plane/data-plane.js';
import type { RunParams } from '../../../electron/protocol/run-params.js';
import type { StreamEnd } from '../../../electron/protocol/messages.js';
import { udpAim, udpLast, udpListen, udpServe } from '../../../electron/engine/data-plane/udp/udp-setup.js';

const TAG = Buffer.from('0011223344556677', 'hex');

function ended(plane: DataPlane): Promise<StreamEnd[]> {
  return new Promise((resolve) => plane.once('done', resolve));
}

describe('UDP through two data planes', { timeout: 30_000 }, () => {
  it('2 streams × 10 Mbit/s for 1 s: the asked rate, every datagram accounted for, UDP counts in the samples', async () => {
    const params: RunParams = {
      streams: 2,
      bufferBytes: 1200,
      windowBytes: null,
      bytes: null,
      seconds: 1,
      direction: 'forward',
      intervalSeconds: 0.25,
      bitrateBitsPerSec: 10e6,
      protocol: 'udp',
    };
    const plan = planStreams(params);
    const receiving = new DataPlane({ params, plan, side: 'responder', partner: 'the controller at 127.0.0.1' });
    const sending = new DataPlane({ params, plan, side: 'controller', partner: 'the responder at 127.0.0.1' });
    const samples: SideSample[] = [];
    receiving.on('sample', (s) => samples.push(s));
    try {
      const ports = await udpListen(receiving, '127.0.0.1', TAG);
      assert.deepEqual([...ports.keys()].sort(), [0, 1]);
      await udpAim(sending, '127.0.0.1', ports, TAG);
      const sent = ended(sending);
      const received = ended(receiving);
      const startNs = process.hrtime.bigint();
      receiving.start(startNs);
      sending.start(startNs);
      const sendEnds = await sent;
      receiving.stop(2000);
      udpLast(receiving, new Map(sendEnds.map((e) => [e.id, e.udp?.lastSeq ?? 0])));
      const recvEnds = await received;
      for (const s of sendEnds) {
        const r = recvEnds.find((e) => e.id === s.id)!;
        const counts = r.udp?.counts;
        assert.ok(counts, `stream ${s.id}: the receiver's counts`);
        assert.equal(counts.datagrams + counts.lost, s.udp?.lastSeq, `stream ${s.id}: arrived + lost = the sender's last number`);
        // The schedule's bytes (1.25 MB in 1 s): what went out plus what this PC was too late to send.
        const ratio = (s.bytes + (s.udp?.shortBytes ?? 0)) / 1_250_000;
        assert.ok(Math.abs(ratio - 1) <= 0.02, `stream ${s.id}: ${ratio.toFixed(4)} × the asked bytes`);
        assert.equal(r.bytes, counts.bytes);
      }
      const withUdp = samples.filter((x) => x.udp?.length === 2);
      assert.ok(withUdp.length >= 3, `${withUdp.length} samples carried both streams' UDP counts`);
      assert.equal(samples.at(-1)?.final, true);
    } finally {
      sending.destroy();
      receiving.destroy();
    }
  });

  it('the other way round (a receiver behind a NAT): the senders bind, the receiver says hello first, then the data flows to it', async () => {
    const params: RunParams = {
      streams: 2,
      bufferBytes: 1000,
      windowBytes: null,
      bytes: null,
      seconds: 0.5,
      direction: 'forward',
      intervalSeconds: 0.25,
      bitrateBitsPerSec: 4e6,
      protocol: 'udp',
    };
    const plan = planStreams(params);
    const receiving = new DataPlane({ params, plan, side: 'responder', partner: 'the controller at 127.0.0.1' });
    const sending = new DataPlane({ params, plan, side: 'controller', partner: 'the responder at 127.0.0.1' });
    try {
      const served = await udpServe(sending, '127.0.0.1', TAG);
      assert.deepEqual([...served.ports.keys()].sort(), [0, 1]);
      let connected = false;
      void served.connected.then(() => (connected = true));
      await new Promise((r) => setTimeout(r, 150));
      assert.equal(connected, false, 'no sender is ready before its receiver said hello');
      await udpListen(receiving, '127.0.0.1', TAG, { host: '127.0.0.1', ports: [...served.ports] });
      await served.connected;
      const sent = ended(sending);
      const received = ended(receiving);
      const startNs = process.hrtime.bigint();
      receiving.start(startNs);
      sending.start(startNs);
      const sendEnds = await sent;
      receiving.stop(2000);
      udpLast(receiving, new Map(sendEnds.map((e) => [e.id, e.udp?.lastSeq ?? 0])));
      const recvEnds = await received;
      for (const s of sendEnds) {
        const counts = recvEnds.find((e) => e.id === s.id)?.udp?.counts;
        assert.ok(counts && counts.datagrams > 0, `stream ${s.id}: datagrams arrived at the receiver that said hello`);
        assert.equal(counts.datagrams + counts.lost, s.udp?.lastSeq, `stream ${s.id}: arrived + lost = the sender's last number`);
      }
    } finally {
      sending.destroy();
      receiving.destroy();
    }
  });
});
