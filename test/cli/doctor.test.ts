/**
 * `longhaul doctor` as a newcomer runs it: what this PC uses to move bytes, each fallback with its
 * reason, the TCP settings the advice reads (unknown where the OS does not say), the switches set;
 * `--json` is the same value the engine resolves in this process (native/data-path.ts), and a switch
 * set in the environment changes both the line and the JSON.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataPath } from '../../electron/native/data-path.js';
import { DATA_PATH_ENV, NO_NATIVE_ENV } from '../../electron/native/switches.js';
import { cli } from '../helpers/cli.js';

describe('longhaul doctor', { timeout: 60_000 }, () => {
  it('prints each choice and the TCP settings; --json is the data path this process resolves', async () => {
    const text = await cli(['doctor']).done;
    assert.equal(text.code, 0, text.stderr);
    for (const label of ['TCP byte loop', 'data connections', 'UDP datagrams', '--bitrate pacing', 'send backlog', 'link emulator', 'native addon'])
      assert.match(text.stdout, new RegExp(`^  ${label.replace(/[-]/g, '\\-')} +\\S`, 'm'), label);
    if (process.platform === 'linux') assert.match(text.stdout, /^ {2}net\.core\.rmem_max +(\d+|unknown)$/m);
    assert.match(text.stdout, /^Switches set: none \(LONGHAUL_DATA_PATH, /m);

    const json = await cli(['doctor', '--json']).done;
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { schema: string; path: unknown; switches: Record<string, string> };
    assert.equal(parsed.schema, 'longhaul.doctor/1');
    assert.deepEqual(parsed.path, JSON.parse(JSON.stringify(dataPath({}))), 'the same value the engine resolves');
    assert.deepEqual(parsed.switches, {});
  });

  it('a switch set in the environment shows as the choice, its reason and in the list', async () => {
    const r = await cli(['doctor'], 30_000, { [DATA_PATH_ENV]: 'node', [NO_NATIVE_ENV]: '1' }).done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}TCP byte loop +Node's socket reads and writes \(LONGHAUL_DATA_PATH=node\)$/m);
    assert.match(r.stdout, /^ {2}native addon +not loaded \(the native socket addon is disabled \(LONGHAUL_NO_NATIVE=1\)\)$/m);
    assert.match(r.stdout, /^ {2}data connections +Node's sockets \(the window stays the OS's: no addon to set it\)$/m);
    assert.match(r.stdout, /^Switches set: LONGHAUL_DATA_PATH=node, LONGHAUL_NO_NATIVE=1 /m);
    const json = JSON.parse((await cli(['doctor', '--json'], 30_000, { [DATA_PATH_ENV]: 'node' }).done).stdout) as { path: { tcpIo: unknown } };
    assert.deepEqual(json.path.tcpIo, { io: 'node', reason: 'LONGHAUL_DATA_PATH=node' });
  });

  it('a typo in a flag is an error naming it', async () => {
    const r = await cli(['doctor', '--jsn']).done;
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--jsn/);
  });
});
