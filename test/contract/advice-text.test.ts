/** The advice at each door: the terminal keeps the saved words (its flags); the app names its own controls. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Advice, LonghaulControl } from '../../electron/contract/advice.js';
import { adviceHow, adviceNeeded, adviceSetting } from '../../electron/contract/advice-text.js';

/** A row as the analysis writes it; `setting` is kept by the app where the control has no name of its own (`this run's length`). */
function row(control: LonghaulControl | undefined, setting = "this run's length"): Advice {
  return {
    direction: 'controllerToResponder',
    verdict: 'application-limited',
    topic: 'application',
    side: 'controller',
    thisPc: true,
    hostname: 'lab-1',
    os: 'Linux',
    setting,
    currentValue: '20 Mbit/s per stream',
    neededValue: 'no pacing (leave --bitrate out)',
    how: 'longhaul run <partner> without -b/--bitrate',
    why: 'This run asked its senders to go no faster.',
    ...(control ? { control } : {}),
  };
}

const CONTROLS: LonghaulControl[] = [
  { kind: 'window', bytes: 650_000, streams: null },
  { kind: 'window', bytes: null, streams: null },
  { kind: 'bitrate' },
  { kind: 'buffer', bytes: 1 << 20 },
  { kind: 'seconds', seconds: 30, streams: 4 },
  { kind: 'streams', streams: 4, now: 1 },
  { kind: 'second-pc', streams: 2, now: 1 },
  { kind: 'link', field: 'rate', bytes: null },
  { kind: 'link', field: 'loss', bytes: null },
  { kind: 'link', field: 'window', bytes: 650_000 },
];

describe('advice at each door', () => {
  it('the terminal keeps the saved words, flags and all', () => {
    const a = row({ kind: 'bitrate' }, "Longhaul's --bitrate (the senders' pacing, per stream)");
    assert.equal(adviceSetting(a, 'terminal'), a.setting);
    assert.equal(adviceHow(a, 'terminal'), a.how);
    assert.equal(adviceNeeded(a, 'terminal'), a.neededValue);
  });

  it('the app names the step and the control for every Longhaul control, and no flag', () => {
    for (const c of CONTROLS) {
      const a = row(c);
      const words = [adviceSetting(a, 'app'), adviceHow(a, 'app')].join(' | ');
      assert.match(words, /(Test|Link|Partner) step/, `${c.kind}: ${words}`);
      assert.doesNotMatch(words, /--[a-z]|\s-[a-zA-Z]\b/, `${c.kind}: ${words}`);
    }
    assert.match(
      adviceHow(row({ kind: 'window', bytes: 650_000, streams: 2 }), 'app'),
      /650,000 bytes in TCP window per stream end and Parallel streams at 2 on the Test step/,
    );
  });

  it('an OS setting has one set of words at both doors', () => {
    const a = row(undefined);
    assert.equal(adviceSetting(a, 'app'), a.setting);
    assert.equal(adviceHow(a, 'app'), a.how);
  });
});

describe('OS settings advice at both doors', () => {
  it("no OS rule names one of Longhaul's flags: the app shows these rows as they are", async () => {
    const { osFamily } = await import('../../electron/analysis/advice/os-family.js');
    const need = { windowBytes: 650_000, bytesPerMbit: 1_000, pathMssBytes: 1_448, current: () => null };
    const oses = [
      { platform: 'linux', release: '6.1.0' },
      { platform: 'darwin', release: '23.0.0' },
      { platform: 'win32', release: '10.0.19045' },
      { platform: 'win32', release: '5.1.2600' },
    ];
    let rows = 0;
    for (const os of oses) {
      const rules = osFamily(os).rules!;
      for (const rule of Object.values(rules)) {
        for (const line of rule(need)) {
          rows++;
          for (const text of [line.setting, line.neededValue, line.how, line.why]) {
            assert.doesNotMatch(text, /(^|[\s(;:])--[a-z]|Longhaul'?s? ?:? ?-[a-zA-Z]\b/, `${os.platform} ${os.release}: ${text}`);
          }
        }
      }
    }
    assert.ok(rows >= 8, `only ${rows} rows looked at`);
  });
});
