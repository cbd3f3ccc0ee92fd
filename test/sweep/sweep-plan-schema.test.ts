/**
 * One sweep plan schema for every door: what `longhaul sweep` accepts, the
 * Sweep screen's form and the app host's `sweepStart` accept too, and the
 * same plan over a limit is refused by all three.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Command } from 'commander';
import { parseRequest } from '../../electron/app/request-schemas.js';
import { addSweepOptions, sweepPlanFromFlags, type SweepFlags } from '../../electron/cli/sweep-options.js';
import { SWEEP_LIMITS } from '../../electron/contract/sweep-app.js';
import type { SweepPlan } from '../../electron/contract/sweep.js';
import { newSweepFile } from '../../electron/sweep/sweep-file.js';
import { DEFAULT_SWEEP_FORM, validateSweepForm } from '../../renderer/src/lib/sweep-form.js';

/** The plan `longhaul sweep --loopback ARGS` would run (commander's parsers included); throws what the CLI would say. */
function cliPlan(args: string[]): SweepPlan {
  const cmd = addSweepOptions(new Command().exitOverride().configureOutput({ writeErr: () => {} }));
  cmd.parse(['--loopback', '--seed', '7', ...args], { from: 'user' });
  const plan = sweepPlanFromFlags(null, cmd.opts<SweepFlags>());
  newSweepFile(plan);
  return plan;
}

const uiAccepts = (plan: SweepPlan) => parseRequest('sweepStart', { plan });

describe('one sweep plan schema', () => {
  it('a plan at every limit: the CLI, the host and the Sweep form all accept it', () => {
    const { maxRepeat, maxPauseSeconds, maxValues } = SWEEP_LIMITS;
    const streams = Array.from({ length: maxValues }, (_, i) => i + 1);
    const plan = cliPlan(['--repeat', String(maxRepeat), '--pause', `${maxPauseSeconds}s`, '--streams', streams.join(','), '--seconds', '1']);
    assert.equal(plan.repeat, maxRepeat);
    assert.deepEqual(uiAccepts(plan), { plan });
    const form = validateSweepForm(
      { ...DEFAULT_SWEEP_FORM, streams: streams.join(','), repeat: String(maxRepeat), pause: String(maxPauseSeconds) },
      { kind: 'loopback' },
      7,
    );
    assert.deepEqual(form.errors, {});
    assert.equal(form.plan?.repeat, maxRepeat);
  });

  it('longhaul sweep --repeat 80 is a plan the Sweep screen starts too', () => {
    assert.deepEqual(uiAccepts(cliPlan(['--repeat', '80'])).plan.repeat, 80);
  });

  it('one past a limit: refused by the CLI, the plan check and the host alike', () => {
    const base = cliPlan(['--repeat', '1']);
    const over: [string, SweepPlan][] = [
      ['repeat', { ...base, repeat: SWEEP_LIMITS.maxRepeat + 1 }],
      ['pause', { ...base, pauseSeconds: SWEEP_LIMITS.maxPauseSeconds + 1 }],
      ['values', { ...base, dimensions: [{ name: 'streams', values: Array.from({ length: SWEEP_LIMITS.maxValues + 1 }, (_, i) => i + 1) }] }],
      [
        'cells',
        {
          ...base,
          dimensions: [
            { name: 'streams', values: Array.from({ length: 40 }, (_, i) => i + 1) },
            { name: 'bufferBytes', values: Array.from({ length: 26 }, (_, i) => (i + 1) * 1024) },
          ],
        },
      ],
      ['seconds', { ...base, base: { ...base.base, seconds: SWEEP_LIMITS.minSeconds / 2 } }],
    ];
    for (const [what, plan] of over) {
      assert.throws(() => newSweepFile(plan), { code: 'LH_ERR_BAD_SWEEP' }, `CLI: ${what}`);
      assert.throws(() => uiAccepts(plan), { code: 'LH_ERR_BAD_ARGUMENT' }, `host: ${what}`);
    }
    assert.throws(() => cliPlan(['--repeat', String(SWEEP_LIMITS.maxRepeat + 1)]), /repeat/);
    assert.throws(() => cliPlan(['--pause', `${SWEEP_LIMITS.maxPauseSeconds + 1}s`]), /pause/);
  });
});
