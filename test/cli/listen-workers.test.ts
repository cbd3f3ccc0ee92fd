/**
 * `longhaul listen --workers N` takes a count of data worker processes per role
 * (1-64), not a port: a word or 0 is refused before anything listens, with
 * exit code 2 and a message naming the flag; 3 is taken and the responder listens.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { tmpDir } from '../helpers/tmp.js';

const LISTEN = ['listen', '--port', '0', '--bind', '127.0.0.1', '--once', '--no-pairing', '--no-advertise'];

describe('longhaul listen --workers', { timeout: 60_000 }, () => {
  for (const [given, why] of [
    ['abc', /"abc" is not a whole number/],
    ['0', /workers must be between 1 and 64, got 0/],
    ['65', /workers must be between 1 and 64, got 65/],
  ] as const) {
    it(`refuses --workers ${given} with exit code 2`, async (t) => {
      const cli = startCli(t, [...LISTEN, '--workers', given], tmpDir(t));
      assert.equal(await cli.exited(15_000), 2);
      assert.match(cli.stderr(), /--workers <n>/);
      assert.match(cli.stderr(), why);
      assert.doesNotMatch(cli.stdout(), /listening on/);
    });
  }

  it('takes --workers 3 and listens', async (t) => {
    const cli = startCli(t, [...LISTEN, '--workers', '3'], tmpDir(t));
    const port = await waitFor('the responder to listen', 15_000, () => /listening on 127\.0\.0\.1:(\d+)/.exec(cli.stdout())?.[1]);
    assert.ok(Number(port) > 0, `port ${port}`);
    assert.equal(cli.stderr(), '');
    cli.killGroup();
  });
});
