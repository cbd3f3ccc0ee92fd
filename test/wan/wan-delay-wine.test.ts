/**
 * Delay under load where the OS gives no RTT: the Windows build under Wine SENDS (`-R`) through a deep
 * tbf queue (250 kB at 10 Mbit/s, 20 ms RTT; CUBIC in its namespace so the queue fills). Wine answers
 * SIO_TCP_INFO with WSAEOPNOTSUPP, so the TCP figures must say unknown; the control channel's own ping
 * must still see the path's 20 ms idle and the queue under load. Needs root and the Windows lane.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { controlQueueingMs } from '../../electron/contract/delay-info.js';
import { laneReady, useWindowsLane } from '../windows/wine-node.js';
import { withAllowedCongestionControl } from './diagnosis-scenarios.js';
import { tbfArgs } from './link-config.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink } from './wan-link.js';
import { longhaulAtoWineB } from './wine-listener-probe.js';

const skip = (await wanSkipReason()) ?? false;
useWindowsLane();

let link: WanLink | undefined;

describe('delay under load with a Windows sender under Wine (no TCP_INFO)', { skip, timeout: 240_000 }, () => {
  after(async () => {
    await link?.destroy();
  });

  it('the control channel sees the path idle and its queue under load; the TCP figures say unknown', { timeout: 200_000 }, async (t) => {
    if (!laneReady(t)) return;
    const r = await withAllowedCongestionControl('cubic', async () => {
      link = await createWanLink({ rateBitsPerSec: 10_000_000, oneWayDelayMs: 10, queueBytes: 250_000 });
      try {
        await link.execInB('sysctl', ['-qw', 'net.ipv4.tcp_congestion_control=cubic']);
        return await longhaulAtoWineB(link, { seconds: 8, flags: ['-R'] });
      } finally {
        await link.destroy();
        link = undefined;
      }
    });
    const d = r.delay;
    const args = tbfArgs(10_000_000, 250_000);
    const holds = ((Number(args[args.indexOf('limit') + 1]) * 8) / 10_000_000) * 1000;
    t.diagnostic(`delay ${JSON.stringify(d)}; the queue holds ${holds.toFixed(0)} ms; responder ${JSON.stringify(r.responder.os)}`);
    assert.equal(r.responder.os?.platform, 'win32', 'the sender is the Windows build');
    assert.ok(d, 'a delay from the control channel alone');
    assert.equal(d.direction, 'responderToController');
    if (d.idleSource === 'unknown') assert.equal(d.idleRttMs, null, 'no TCP_INFO: unknown, not 0');
    assert.ok(d.controlIdleRttMs != null && d.controlIdleRttMs >= 18 && d.controlIdleRttMs < 60, `control idle ${d.controlIdleRttMs} ms: the path's 20 ms`);
    const q = controlQueueingMs(d);
    assert.ok(q !== null && q >= 0.4 * holds && q <= 1.3 * holds, `control-channel queueing ${q} ms vs the ${holds.toFixed(0)} ms the queue holds`);
  });
});
