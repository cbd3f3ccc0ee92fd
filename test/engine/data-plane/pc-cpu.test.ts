/**
 * The whole PC's busy share from two readings of /proc/stat, and whether a peer's address is this PC.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseProcStat, pcCpuBetween, readPcCpuTimes } from '../../../electron/engine/data-plane/pc-cpu.js';
import { hostOf, samePcOf } from '../../../electron/engine/session/same-pc.js';

describe('the PC busy share', () => {
  it('counts user, nice, system, irq, softirq and steal as busy; idle and iowait as not', () => {
    // Two readings 1,000 ticks apart (as from a loopback run): 60 user, 200 system, 10 idle, 5 iowait, 125 softirq, 0 irq, 2 steal... per 1000.
    const a = parseProcStat('cpu  1000 0 2000 5000 100 0 600 50 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n');
    const b = parseProcStat('cpu  1600 10 4000 5100 150 0 1850 70 0 0\n');
    const pc = pcCpuBetween(a, b)!;
    // busy: 600 + 10 + 2000 + 0 + 1250 + 20 = 3880; total: 3880 + 100 + 50 = 4030
    assert.ok(Math.abs(pc.busyShare - 3880 / 4030) < 1e-9, String(pc.busyShare));
    assert.ok(Math.abs(pc.interruptShare! - 1250 / 4030) < 1e-9);
    assert.ok(Math.abs(pc.stealShare! - 20 / 4030) < 1e-9);
    assert.equal(pc.source, 'proc-stat');
  });

  it('unknown stays unknown: no reading, a malformed one, or no time between them', () => {
    assert.equal(parseProcStat('intr 1 2 3\n'), null);
    assert.equal(parseProcStat('cpu  1 2 x 4 5 6 7\n'), null);
    const a = parseProcStat('cpu  1 2 3 4 5 6 7 8 0 0\n');
    assert.equal(pcCpuBetween(a, null), null);
    assert.equal(pcCpuBetween(a, a), null);
  });

  it('this PC gives a share between 0 and 1', async () => {
    const a = readPcCpuTimes();
    await new Promise((r) => setTimeout(r, 50));
    const pc = pcCpuBetween(a, readPcCpuTimes());
    if (process.platform === 'linux') assert.ok(pc && pc.busyShare >= 0 && pc.busyShare <= 1, JSON.stringify(pc));
  });
});

describe('same PC from the peer address', () => {
  const ifaces = { lo: [{ address: '127.0.0.1' }], eth0: [{ address: '10.1.2.3' }, { address: 'fe80::1' }] } as never;
  it("loopback, this PC's own addresses and its names are this PC", () => {
    for (const a of ['127.0.0.1:5201', '::ffff:127.0.0.1', '[::1]:5201', '::1', '10.1.2.3:7000', 'localhost:5201', 'vm:5201', '127.0.0.2'])
      assert.equal(samePcOf(a, ifaces, 'vm'), true, a);
  });
  it('another address is another PC; another name cannot be told', () => {
    assert.equal(samePcOf('198.51.100.2:5201', ifaces, 'vm'), false);
    assert.equal(samePcOf('[2001:db8::2]:5201', ifaces, 'vm'), false);
    assert.equal(samePcOf('server.lan:5201', ifaces, 'vm'), null);
  });
  it('host parts', () => {
    assert.equal(hostOf('[fe80::1%eth0]:80'), 'fe80::1');
    assert.equal(hostOf('2001:db8::2'), '2001:db8::2');
    assert.equal(hostOf('::ffff:10.0.0.1'), '10.0.0.1');
  });
});
