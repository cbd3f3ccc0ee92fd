/**
 * Run inside a fresh network namespace (see discovery.test.ts): advertise a
 * responder and browse for it over 127.0.0.1 multicast, print what was found.
 */
import { advertise, browse } from '../../electron/discovery/dns-sd.js';

const fp = 'ab'.repeat(32);
const ad = advertise('lab-pc', 5211, fp, { interface: '127.0.0.1' });
const found = await browse(2500, (f) => f === fp, { interface: '127.0.0.1' });
await ad.stop();
process.stdout.write(JSON.stringify(found) + '\n');
process.exit(0);
