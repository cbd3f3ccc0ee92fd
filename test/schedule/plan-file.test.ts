/**
 * A schedule's plan (electron/schedule/plan-file.ts): one rule for the app's form, the CLI's flags and
 * a file edited by hand; a file's refusal points at its line and column with the reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPlan, parsePlanText, planText } from '../../electron/schedule/plan-file.js';

const minimal = { schema: 'longhaul.schedule/1', name: 'lab', every: '15m', peers: ['lab-pc', '192.0.2.8:6000'] };

/** The problem of a plan file, asserted to be one. */
function problemOf(text: string, file = 'lab.plan.json'): { line: number; column: number; reason: string } {
  const r = parsePlanText(text, file);
  assert.equal(r.ok, false, 'refused');
  return (r as { problem: { line: number; column: number; reason: string } }).problem;
}

describe('schedule plan file', () => {
  it('fills a minimal plan with the defaults of longhaul run, peers as host:port; its text reads back the same', () => {
    const r = checkPlan(minimal);
    assert.ok(r.ok);
    assert.deepEqual(r.plan.peers, ['lab-pc:5211', '192.0.2.8:6000']);
    assert.equal(r.plan.test.seconds, 10);
    assert.equal(r.plan.test.streams, 1);
    assert.equal(r.plan.paused, false);
    assert.equal(r.clock.everyMs, 900_000);
    const back = parsePlanText(planText(r.plan), 'lab.plan.json');
    assert.ok(back.ok);
    assert.deepEqual(back.plan, r.plan);
  });

  it('a UDP test takes the UDP defaults (datagram size, bitrate); a cron line gives its gap as the interval', () => {
    const r = checkPlan({ ...minimal, every: undefined, cron: '*/10 * * * *', test: { protocol: 'udp' } });
    assert.ok(r.ok);
    assert.equal(r.plan.test.protocol, 'udp');
    assert.ok((r.plan.test.bitrateBitsPerSec ?? 0) > 0 && r.plan.test.bufferBytes < 65536);
    assert.equal(r.clock.everyMs, 600_000);
  });

  it('refuses what a schedule cannot be, naming the field', () => {
    const refused = (v: object): string => {
      const r = checkPlan({ ...minimal, ...v });
      assert.equal(r.ok, false, JSON.stringify(v));
      return (r as { refusal: { path: (string | number)[] } }).refusal.path.join('.');
    };
    assert.equal(refused({ every: '3s' }), 'every');
    assert.equal(refused({ every: '5s', test: { seconds: 4 } }), 'every', 'the test and its set-up do not fit the interval');
    assert.equal(refused({ cron: '0 * * * *' }), 'cron', 'both every and cron');
    assert.equal(refused({ every: undefined, cron: '0 0 30 2 *' }), 'cron', 'never occurs');
    assert.equal(refused({ name: 'a b' }), 'name');
    assert.equal(refused({ peers: [] }), 'peers');
    assert.equal(refused({ peers: ['a', 'a:5211'] }), 'peers.1', 'the same peer twice');
    assert.equal(refused({ peers: ['a:99999'] }), 'peers.0');
    assert.equal(refused({ test: { bytes: 1000 } }), 'test.bytes', 'a scheduled test lasts a time');
    assert.equal(refused({ test: { streams: 0 } }), 'test.streams');
    assert.equal(refused({ test: { sreams: 2 } }), 'test.sreams', 'a typo is pointed at itself');
    assert.equal(refused({ test: { protocol: 'udp' }, capacity: true }), 'capacity');
    assert.equal(refused({ paused: 'yes' }), 'paused');
    assert.equal(refused({ pasued: true }), 'pasued');
  });

  it('a file broken by hand: the line and column of the fault, and why', () => {
    const good = planText((checkPlan(minimal) as { plan: Parameters<typeof planText>[0] }).plan);
    const lines = good.split('\n');
    const at = (needle: string): number => lines.findIndex((l) => l.includes(needle)) + 1;

    const syntax = problemOf(good.replace('"every": "15m",', '"every": "15m"'));
    assert.equal(syntax.line, at('"peers"'), 'a missing comma is seen where the next field starts');
    assert.match(syntax.reason, /^not JSON: comma expected/);

    const typed = problemOf(good.replace('"seconds": 10', '"seconds": "ten"'));
    assert.deepEqual([typed.line, typed.column], [at('"seconds"'), 5]);
    assert.match(typed.reason, /test\.seconds.*number/);

    const typo = problemOf(good.replace('"streams": 1', '"sreams": 1'));
    assert.equal(typo.line, at('"streams"'));
    assert.match(typo.reason, /"sreams" is not a run parameter/);

    assert.equal(problemOf(good.replace('"15m"', '"fortnightly"')).line, at('"every"'));
    assert.match(problemOf(good, 'other.plan.json').reason, /"name" is "lab" but the file is other\.plan\.json/);
    assert.match(problemOf('').reason, /empty|not JSON/);
    assert.match(problemOf('{"schema": "longhaul.schedule/1", // note\n}').reason, /not JSON/, 'no comments: what the app writes back would lose them');
  });
});
