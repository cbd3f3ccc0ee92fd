/**
 * Real CPU figures in the iperf3 interop, both ways, against Debian's iperf3:
 * `iperf3 -c -J` sees Longhaul's server's cpu_util (not 0), and Longhaul's
 * iperf3 client records the server's own figures as the responder's CPU.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { startIperf3Run } from '../../electron/engine/iperf3/iperf3-client.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import { HAVE_IPERF3, freePort, runIperf3, startIperf3Server } from '../helpers/iperf3.js';

describe('CPU in the iperf3 interop (real iperf3)', { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3', timeout: 60_000 }, () => {
  it("iperf3 -c -J sees Longhaul's server's CPU utilization", async (t) => {
    const server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
    t.after(() => server.close());
    const { port } = await server.listen();
    const ended = new Promise<LonghaulResult | null>((resolve) => server.once('session-end', (result) => resolve(result)));
    const client = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-J', '-t', '2'], 30_000);
    const result = await ended;
    assert.equal(client.code, 0, client.stderr);
    const cpu = (client.json as { end?: { cpu_utilization_percent?: Record<string, number> } } | null)?.end?.cpu_utilization_percent;
    assert.ok(cpu, `iperf3 printed its CPU block: ${client.stdout.slice(-600)}`);
    assert.ok(cpu.remote_total! > 0, `remote_total ${cpu.remote_total}`);
    assert.ok(Math.abs(cpu.remote_total! - (cpu.remote_user! + cpu.remote_system!)) < 0.5 + cpu.remote_total! * 0.05, JSON.stringify(cpu));
    // What the server told the client is what it recorded for itself; the client's own figure is in its result too.
    assert.ok(result?.cpu?.responder, 'the server recorded its CPU');
    assert.ok(Math.abs(result.cpu.responder.shareOfOneCore * 100 - cpu.remote_total!) < 1e-6, `${result.cpu.responder.shareOfOneCore} vs ${cpu.remote_total}`);
    assert.ok(result.cpu.controller && result.cpu.controller.coresKnown === false, JSON.stringify(result.cpu.controller));
    assert.ok(Math.abs(result.cpu.controller.shareOfOneCore * 100 - cpu.host_total!) < 1e-6, `${result.cpu.controller.shareOfOneCore} vs ${cpu.host_total}`);
  });

  it("Longhaul's iperf3 client records iperf3 -s's own CPU figures for the responder", async () => {
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 30_000);
    const params = { streams: 1, bufferBytes: 128 * 1024, windowBytes: null, bytes: null, seconds: 2, direction: 'forward' as const, intervalSeconds: 1 };
    const result = await startIperf3Run({ host: '127.0.0.1', port, params }).result;
    assert.equal((await exit).code, 0);
    assert.ok(!result.partial, result.partialReason ?? '');
    const { controller, responder } = result.cpu ?? {};
    assert.ok(controller && controller.shareOfOneCore > 0 && controller.coresKnown === undefined, JSON.stringify(controller));
    assert.ok(responder, 'the iperf3 server sent its CPU figures');
    assert.equal(responder.coresKnown, false, 'iperf3 does not say how many cores it has');
    assert.equal(responder.threads, null);
    assert.ok(responder.shareOfOneCore > 0, JSON.stringify(responder));
  });
});
