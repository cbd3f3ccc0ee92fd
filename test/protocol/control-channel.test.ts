/**
 * The control channel's errors name the partner as the reports' headers do: its role and address before its
 * hello, its host name too after it, made printable (a hostile host name cannot reach a terminal raw).
 */
import assert from 'node:assert/strict';
import type net from 'node:net';
import { describe, it, mock } from 'node:test';
import { ControlChannel } from '../../electron/protocol/control-channel.js';
import { encodeFrame } from '../../electron/protocol/framing.js';
import { PROTOCOL_VERSION } from '../../electron/protocol/messages.js';
import type { LonghaulError } from '../../electron/util/errors.js';
import { MemorySocket } from '../helpers/memory-socket.js';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

function channel(role: 'controller' | 'responder', partnerAddress?: string): { socket: MemorySocket; ch: ControlChannel; failures: LonghaulError[] } {
  const socket = new MemorySocket();
  const ch = new ControlChannel(socket as unknown as net.Socket, { role, ...(partnerAddress ? { partnerAddress } : {}) });
  const failures: LonghaulError[] = [];
  ch.on('failure', (e) => failures.push(e));
  return { socket, ch, failures };
}

const hello = (hostname: string): Buffer => encodeFrame({ type: 'hello', protocol: PROTOCOL_VERSION, software: 'longhaul/test', hostname, capabilities: [] });

describe('control channel: errors name the partner', () => {
  it('before its hello: the role and the address', async () => {
    const { socket, ch, failures } = channel('responder');
    socket.emit('end');
    await tick();
    assert.equal(failures[0]?.message, 'the controller at 192.0.2.1 closed the control connection in state "hello"');
    ch.destroy();
  });

  it('after its hello: the host name and the address, the name made printable', async () => {
    const { socket, ch, failures } = channel('controller', 'lab-7:5211');
    socket.push(hello('lab-7\u001b[2J'));
    await tick();
    assert.equal(ch.partnerLabel, 'the responder lab-7\\u{1b}[2J (lab-7:5211)');
    socket.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    await tick();
    assert.match(failures[0]?.message ?? '', /^the control connection to the responder lab-7\\u\{1b\}\[2J \(lab-7:5211\) was lost: /);
    assert.ok(!(failures[0]?.message ?? '').includes('\u001b'), 'no raw escape');
    ch.destroy();
  });

  it("a silent partner's timeout and its own error frame are named too", async (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const silent = channel('responder');
    mock.timers.tick(10_001);
    assert.match(silent.failures[0]?.message ?? '', /^the controller at 192\.0\.2\.1 sent nothing for 10 s in state "hello"$/);
    silent.ch.destroy();
    const told = channel('responder');
    told.socket.push(hello('ctl-pc'));
    told.socket.push(encodeFrame({ type: 'error', code: 'LH_ERR_STOPPED', message: 'stopped' }));
    await tick();
    assert.equal(told.failures[0]?.message, 'the controller ctl-pc (192.0.2.1): stopped');
    told.ch.destroy();
  });
});
