/**
 * macOS's advice alone: macOS advertises about its whole receive buffer, so a window of W needs
 * autorcvbufmax and maxsockbuf of W (no factor, unlike Linux's overhead share); each line names
 * the sysctl key, the value this PC read, and a command with the needed bytes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MACOS_RULES } from '../../../electron/analysis/advice/macos.js';
import type { AdviceNeed } from '../../../electron/analysis/advice/os-rules.js';

const read: Record<string, string> = { 'net.inet.tcp.autorcvbufmax': '4194304', 'kern.ipc.maxsockbuf': '8388608', 'net.inet.tcp.rfc1323': '1' };
/** A path whose bandwidth-delay product is 12.5 MB (1 Gbit/s × 100 ms). */
const need: AdviceNeed = { windowBytes: 12_500_000, bytesPerMbit: 12_500, pathMssBytes: 1448, current: (k) => read[k] ?? null };

describe('MACOS_RULES', () => {
  it('a receive window of W needs autorcvbufmax and maxsockbuf of W, with the value read and the command to set it', () => {
    const lines = MACOS_RULES['receive-window']?.(need) ?? [];
    assert.deepEqual(
      lines.map((l) => [l.setting, l.currentValue, l.neededValue, l.command]),
      [
        ['net.inet.tcp.autorcvbufmax', '4194304', 'at least 12,500,000 bytes', 'sudo sysctl -w net.inet.tcp.autorcvbufmax=12500000'],
        ['kern.ipc.maxsockbuf', '8388608', 'at least 12,500,000 bytes', 'sudo sysctl -w kern.ipc.maxsockbuf=12500000'],
      ],
    );
    assert.equal(lines[0]?.how, 'sysctl net.inet.tcp.autorcvbufmax; sudo sysctl -w net.inet.tcp.autorcvbufmax=12500000 (until restart)');
  });

  it('the send buffer: autosndbufmax, under the same maxsockbuf cap', () => {
    const lines = MACOS_RULES['send-buffer']?.(need) ?? [];
    assert.deepEqual(
      lines.map((l) => l.setting),
      ['net.inet.tcp.autosndbufmax', 'kern.ipc.maxsockbuf'],
    );
    assert.equal(lines[0]?.currentValue, null, 'not read: unknown, not a guess');
    assert.equal(lines[0]?.command, 'sudo sysctl -w net.inet.tcp.autosndbufmax=12500000');
  });

  it('with the rate unknown, the bytes are a placeholder and the need is per Mbit/s', () => {
    const line = MACOS_RULES['receive-window']?.({ ...need, windowBytes: null })[0];
    assert.equal(line?.command, 'sudo sysctl -w net.inet.tcp.autorcvbufmax=<bytes>');
    assert.equal(line?.neededValue, "unknown until the path's rate is known: 12,500 bytes per Mbit/s wanted at this RTT");
  });

  it('window scaling is rfc1323 on; the MSS is the interface MTU', () => {
    assert.deepEqual(
      (MACOS_RULES['window-scaling']?.(need) ?? []).map((l) => [l.setting, l.currentValue, l.neededValue, l.how]),
      [['net.inet.tcp.rfc1323', '1', '1 (on)', 'sudo sysctl -w net.inet.tcp.rfc1323=1']],
    );
    const mss = MACOS_RULES.mss?.({ ...need, pathMssBytes: 8948 })[0];
    assert.equal(mss?.neededValue, 'an MTU that gives an MSS of about 8,948 bytes (1,500 on Ethernet)');
    assert.equal(mss?.currentValue, null);
  });
});
