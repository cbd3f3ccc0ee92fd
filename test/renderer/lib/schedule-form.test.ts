/** The Schedules form (renderer/src/lib/schedule-form.ts): a plan the host's rule accepts, a message per bad field, an edit keeping what the form does not show, the host's refusal mapped back to its field. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPlan } from '../../../electron/schedule/plan-file.js';
import { fieldOfRefusal, formOfPlan, NEW_SCHEDULE, planOfForm, type ScheduleForm } from '../../../renderer/src/lib/schedule-form.js';

const form = (over: Partial<ScheduleForm>): ScheduleForm => ({ ...NEW_SCHEDULE, name: 'lab', partners: '192.0.2.7, lab-pc:6000', ...over });

describe('schedule form', () => {
  it('makes a plan the host accepts, TCP and UDP, every and cron', () => {
    for (const f of [form({}), form({ protocol: 'udp', bitrate: '2M', direction: 'reverse' }), form({ when: 'cron', cron: ' 5  * * * * ', streams: '4' })]) {
      const out = planOfForm(f);
      assert.ok(out.ok, JSON.stringify(out));
      const checked = checkPlan(out.plan);
      assert.ok(checked.ok, JSON.stringify(checked));
      assert.deepEqual(checked.plan.peers, ['192.0.2.7:5211', 'lab-pc:6000']);
    }
    const udp = planOfForm(form({ protocol: 'udp', bitrate: '2M' }));
    assert.ok(udp.ok && udp.plan.test.bitrateBitsPerSec === 2e6 && udp.plan.test.protocol === 'udp');
  });

  it('says what is wrong on each field', () => {
    const out = planOfForm(form({ name: 'a b', every: '3s', partners: 'x:99999', streams: '0', seconds: 'ten' }));
    assert.ok(!out.ok);
    assert.deepEqual(Object.keys(out.errors).sort(), ['every', 'name', 'partners', 'seconds', 'streams']);
    const tight = planOfForm(form({ every: '6s', seconds: '5' }));
    assert.ok(!tight.ok && /at least 7 s/.test(tight.errors.every ?? ''));
    const twice = planOfForm(form({ partners: 'a, a:5211' }));
    assert.ok(!twice.ok && /listed twice/.test(twice.errors.partners ?? ''));
    const udpCapacity = planOfForm(form({ protocol: 'udp', capacity: true }));
    assert.ok(!udpCapacity.ok && udpCapacity.errors.capacity);
  });

  it('an edit keeps what the form has no field for (set in the file or by the CLI), unless the protocol changed', () => {
    const kept = checkPlan({
      schema: 'longhaul.schedule/1',
      name: 'lab',
      every: '15m',
      peers: ['a'],
      test: { windowBytes: 4_194_304, congestionControl: 'bbr', seconds: 20 },
    });
    assert.ok(kept.ok);
    const f = formOfPlan(kept.plan);
    assert.equal(f.seconds, '20');
    const again = planOfForm({ ...f, streams: '2' }, kept.plan.test);
    assert.ok(again.ok);
    assert.equal(again.plan.test.windowBytes, 4_194_304);
    assert.equal(again.plan.test.congestionControl, 'bbr');
    assert.equal(again.plan.test.streams, 2);
    const udp = planOfForm({ ...f, protocol: 'udp' }, kept.plan.test);
    assert.ok(udp.ok && udp.plan.test.congestionControl === undefined, 'no congestion control for UDP');
  });

  it("maps the host's refusal to a field", () => {
    assert.equal(fieldOfRefusal('"every" must be between 5 s and 7 days, got 3 s (every)'), 'every');
    assert.equal(fieldOfRefusal('"test.seconds": too long (test.seconds)'), 'seconds');
    assert.equal(fieldOfRefusal('a peer… (peers.1)'), 'partners');
    assert.equal(fieldOfRefusal('LH_ERR_FILE_EXISTS: a schedule named "lab" exists already'), null);
  });
});
