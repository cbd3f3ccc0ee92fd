/**
 * Nothing a peer sends reaches a terminal raw. A host that answers `longhaul
 * pair` with an error full of escape sequences (retitle the window, clear the
 * screen, print a fake "paired with …") gets them printed as visible `\u{1b}`
 * text; the control channel's schemas do the same for every free-text field.
 */
import assert from 'node:assert/strict';
import tls from 'node:tls';
import { describe, it } from 'node:test';
import { encodeFrame } from '../../electron/protocol/framing.js';
import { parseMessage } from '../../electron/protocol/messages.js';
import { createIdentity } from '../../electron/security/identity.js';
import { cli } from '../helpers/cli.js';

const EVIL = '\u001b]0;pwned\u0007\u001b[2J\u001b[Hpaired with bank-server (10.0.0.1)\u009b31m\u202egnp.exe';
// eslint-disable-next-line no-control-regex -- control characters are what the test looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

describe('text from the network', { timeout: 60_000 }, () => {
  it("longhaul pair prints a hostile host's error with every control character made visible", async () => {
    const id = await createIdentity('evil');
    const server = tls.createServer({ cert: id.certPem, key: id.keyPem, minVersion: 'TLSv1.3', requestCert: true, rejectUnauthorized: false }, (s) => {
      s.on('error', () => undefined);
      s.once('data', () => s.end(encodeFrame({ type: 'error', code: 'LH_ERR_PAIRING_FAILED', message: EVIL })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const { done } = cli(['pair', `127.0.0.1:${port}`, '--code', 'AAAA-BBBB-CCCC'], 20_000);
      const r = await done;
      const out = r.stdout + r.stderr;
      assert.notEqual(r.code, 0, 'pairing failed');
      assert.doesNotMatch(out, CONTROL, `raw control characters reached the terminal: ${JSON.stringify(out)}`);
      assert.match(out, /\\u\{1b\}\]0;pwned\\u\{7\}/, `the escape is shown, not obeyed: ${out}`);
    } finally {
      server.close();
    }
  });

  it("the control channel's schemas escape error messages, reasons and host names", () => {
    const m = parseMessage({ type: 'error', code: 'LH_ERR_BUSY', message: EVIL });
    assert.ok(m.type === 'error');
    assert.doesNotMatch(m.message, CONTROL);
    assert.match(m.message, /^\\u\{1b\}\]0;pwned/);
    const hello = parseMessage({ type: 'hello', protocol: 1, software: `x${EVIL}`, hostname: `pc\u001b[31m`, capabilities: [] });
    assert.ok(hello.type === 'hello');
    assert.equal(hello.hostname, 'pc\\u{1b}[31m');
  });
});
