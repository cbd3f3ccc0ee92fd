/**
 * The emulator advice's commands model the same link with one thing changed: parsed back by the CLI's own
 * link flags, each gives the run's settings (jitter, window, slow start, loss and its pattern included)
 * with only the advised one different. (The emulated MSS has no flag: a --link-config link's own MSS is not carried.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import type { Diagnosis, LonghaulResult } from '../../../electron/contract/result.js';
import { DEFAULT_MSS_BYTES } from '../../../electron/contract/wire.js';
import { adviseResult } from '../../../electron/analysis/advice/advise.js';
import { addLinkOptions, linkSpecFromFlags, type LinkFlags } from '../../../electron/cli/link-options.js';
import type { LinkSettings } from '../../../electron/proxy/link-settings.js';
import { emulatedLink, makeResult, seedDiagnosis } from '../../helpers/result-fixtures.js';

const SETTINGS: LinkSettings = {
  delayMs: 650,
  jitterMs: 5,
  rateBitsPerSec: 4e6,
  windowBytes: 8760,
  slowstart: true,
  lossRatio: 0.001,
  lossPattern: 'periodic',
  mssBytes: DEFAULT_MSS_BYTES,
};

function emulatedRun(verdict: Diagnosis['verdict']): LonghaulResult {
  const r = makeResult({ streams: [{ bytes: 8760 * 10, seconds: 13, completions: 60 }] });
  r.params.windowBytes = null;
  r.diagnosis = [seedDiagnosis({ verdict })];
  r.link = emulatedLink(SETTINGS);
  return r;
}

/** The settings a `longhaul loopback …` command line gives, through the CLI's own link flags. */
function settingsOf(command: string, placeholder: string, value: string): LinkSettings {
  const words = command.replace(placeholder, value).split(' ');
  assert.deepEqual(words.slice(0, 2), ['longhaul', 'loopback'], command);
  const cmd = addLinkOptions(new Command('loopback').exitOverride(), { presetFlag: '--link', window: true });
  cmd.parse(words.slice(2), { from: 'user' });
  const spec = linkSpecFromFlags(cmd.opts<LinkFlags>());
  assert.ok(spec?.spec.settings, command);
  return spec.spec.settings;
}

describe('emulator advice commands', () => {
  it('keep every other setting of the link and change only the advised one', () => {
    const cases: [Diagnosis['verdict'], string, string, Partial<LinkSettings>][] = [
      ['link-limited', '--rate <rate>', '--rate 10000000', { rateBitsPerSec: 1e7 }],
      ['congestion-limited', '--loss <ratio>', '--loss 0.0001', { lossRatio: 0.0001 }],
    ];
    for (const [verdict, placeholder, value, changed] of cases) {
      const how = adviseResult(emulatedRun(verdict), {})[0]?.how ?? '';
      const command = /longhaul loopback [^;]*/.exec(how)?.[0] ?? '';
      assert.ok(command.includes(placeholder), `${verdict}: ${how}`);
      assert.deepEqual(settingsOf(command, placeholder, value), { ...SETTINGS, ...changed }, `${verdict}: ${command}`);
    }
  });
  it('the window line names the window the link needs, on the same link', () => {
    const line = adviseResult(emulatedRun('window-limited'), {})[0]!;
    assert.match(line.setting, /emulated window/);
    const needed = /--window (\d+)/.exec(line.how)?.[1];
    assert.ok(needed && Number(needed) > SETTINGS.windowBytes!, line.how);
    assert.deepEqual(settingsOf(line.how, '', ''), { ...SETTINGS, windowBytes: Number(needed) });
  });
});
