/**
 * The link emulator's limits have one home (contract/link-limits.ts): at each
 * edge, the CLI's flags, the Link screen's form, the link settings and every
 * stage that takes the value accept and refuse alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkSpecFromFlags } from '../../electron/cli/link-options.js';
import {
  LINK_MAX_DELAY_MS,
  LINK_MAX_JITTER_MS,
  LINK_MAX_LOSS_RATIO,
  LINK_MAX_MSS_BYTES,
  LINK_MAX_RATE_BITS_PER_SEC,
  LINK_MIN_MSS_BYTES,
} from '../../electron/contract/link-limits.js';
import { NO_LINK, parseLinkSettings } from '../../electron/proxy/link-settings.js';
import { parseStageConfig } from '../../electron/proxy/registry.js';
import { DEFAULT_LINK_FORM, validateLinkForm, type LinkForm } from '../../renderer/src/lib/link-form.js';

const accepts = (f: () => unknown) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};
const formAccepts = (over: Partial<LinkForm>) => validateLinkForm({ ...DEFAULT_LINK_FORM, kind: 'proxy', ...over }, null).settings !== null;
const settingsAccept = (over: object) => accepts(() => parseLinkSettings({ ...NO_LINK, ...over }));
const stageAccepts = (config: object) => accepts(() => parseStageConfig(config));
const cliAccepts = (flags: object) => accepts(() => linkSpecFromFlags({ delay: '10ms', ...flags }));

describe('link limits: one rule at every door', () => {
  it('MSS: the form, the settings and the three stages that take it agree at both ends', () => {
    for (const [mss, ok] of [
      [LINK_MIN_MSS_BYTES - 1, false],
      [LINK_MIN_MSS_BYTES, true],
      [LINK_MAX_MSS_BYTES, true],
      [LINK_MAX_MSS_BYTES + 1, false],
    ] as const) {
      const seen = [
        formAccepts({ mss: String(mss) }),
        settingsAccept({ mssBytes: mss }),
        stageAccepts({ type: 'loss', lossRatio: 0.01, mssBytes: mss }),
        stageAccepts({ type: 'rate', rateBitsPerSec: 1e6, mssBytes: mss }),
        stageAccepts({ type: 'slowstart', mssBytes: mss }),
      ];
      assert.deepEqual(seen, [ok, ok, ok, ok, ok], `mss ${mss}`);
    }
  });

  it('loss: the CLI, the form, the settings and the loss stage agree at 0 and at the top', () => {
    const top = LINK_MAX_LOSS_RATIO * 100;
    for (const [percent, ok] of [
      [0, true],
      [top, true],
      [top + 0.1, false],
      [-1, false],
    ] as const) {
      const ratio = percent / 100;
      const seen = [
        cliAccepts({ loss: `${percent}%` }),
        formAccepts({ loss: `${percent}%` }),
        settingsAccept({ lossRatio: ratio }),
        stageAccepts({ type: 'loss', lossRatio: ratio }),
      ];
      assert.deepEqual(seen, [ok, ok, ok, ok], `loss ${percent} %`);
    }
  });

  it('RTT, jitter and rate: the CLI, the form, the settings and the stage agree at the top', () => {
    for (const [ms, ok] of [
      [LINK_MAX_DELAY_MS, true],
      [LINK_MAX_DELAY_MS + 1, false],
    ] as const) {
      const seen = [
        cliAccepts({ delay: `${ms}ms` }),
        formAccepts({ rtt: `${2 * ms}ms` }),
        settingsAccept({ delayMs: ms }),
        stageAccepts({ type: 'delay', delayMs: ms }),
      ];
      assert.deepEqual(seen, [ok, ok, ok, ok], `delay ${ms} ms`);
    }
    for (const [ms, ok] of [
      [LINK_MAX_JITTER_MS, true],
      [LINK_MAX_JITTER_MS + 1, false],
    ] as const) {
      const seen = [
        cliAccepts({ jitter: `${ms}ms` }),
        formAccepts({ jitter: `${ms}ms` }),
        settingsAccept({ jitterMs: ms }),
        stageAccepts({ type: 'delay', delayMs: 0, jitterMs: ms }),
      ];
      assert.deepEqual(seen, [ok, ok, ok, ok], `jitter ${ms} ms`);
    }
    for (const [bps, ok] of [
      [LINK_MAX_RATE_BITS_PER_SEC, true],
      [LINK_MAX_RATE_BITS_PER_SEC * 2, false],
    ] as const) {
      const seen = [
        cliAccepts({ rate: String(bps) }),
        formAccepts({ rate: String(bps) }),
        settingsAccept({ rateBitsPerSec: bps }),
        stageAccepts({ type: 'rate', rateBitsPerSec: bps }),
      ];
      assert.deepEqual(seen, [ok, ok, ok, ok], `rate ${bps} bit/s`);
    }
  });
});
