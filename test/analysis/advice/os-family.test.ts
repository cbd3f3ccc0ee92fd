/**
 * Which advice rules fit a PC, from the OS its hello gave: the family's label and rules, Windows
 * before Vista (release < 6) on its registry values with the release passed on, and no rules
 * where the OS is unknown, so no setting is named for a PC whose settings are not known.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LINUX_RULES } from '../../../electron/analysis/advice/linux.js';
import { MACOS_RULES } from '../../../electron/analysis/advice/macos.js';
import { osFamily } from '../../../electron/analysis/advice/os-family.js';
import type { AdviceNeed } from '../../../electron/analysis/advice/os-rules.js';
import { WINDOWS_RULES } from '../../../electron/analysis/advice/windows.js';

const need: AdviceNeed = { windowBytes: 1_000_000, bytesPerMbit: 10_000, pathMssBytes: 1448, current: () => null };

describe('osFamily', () => {
  it('names Linux and macOS with their release, with their rules', () => {
    assert.deepEqual(osFamily({ platform: 'linux', release: '6.18.0' }), { label: 'Linux 6.18.0', rules: LINUX_RULES });
    assert.deepEqual(osFamily({ platform: 'darwin', release: '24.1.0' }), { label: 'macOS (Darwin 24.1.0)', rules: MACOS_RULES });
  });

  it('Windows from Vista (6.0) on has the netsh rules; before it, the registry rules of that release', () => {
    for (const release of ['6.0.6000', '6.1.7601', '10.0.19045']) {
      assert.deepEqual(osFamily({ platform: 'win32', release }), { label: `Windows ${release}`, rules: WINDOWS_RULES }, release);
    }
    const xp = osFamily({ platform: 'win32', release: '5.1.2600' });
    assert.equal(xp.label, 'Windows (before Vista) 5.1.2600');
    assert.notEqual(xp.rules, WINDOWS_RULES);
    assert.match(xp.rules?.mss?.(need)[0]?.setting ?? '', /Interfaces\\<adapter>\\MTU$/);
    // The release reaches the rules: Windows 98 keeps its MTU elsewhere.
    assert.match(osFamily({ platform: 'win32', release: '4.10.2222' }).rules?.mss?.(need)[0]?.setting ?? '', /netTrans\\000n\\MaxMTU$/);
  });

  it('a Windows release that is not a number is taken as a modern one', () => {
    assert.deepEqual(osFamily({ platform: 'win32', release: 'unknown' }), { label: 'Windows unknown', rules: WINDOWS_RULES });
  });

  it('names no settings for an OS it has no rules for, or a PC that did not say', () => {
    assert.deepEqual(osFamily({ platform: 'freebsd', release: '14.1' }), { label: 'freebsd 14.1 (no advice rules for this OS)', rules: null });
    assert.deepEqual(osFamily(undefined), { label: 'unknown (the PC did not say: a Longhaul version that does not send its OS)', rules: null });
  });
});
