/** `longhaul listen`: be a responder, waiting for a controller; each run served goes to History (served-history.ts) unless --no-record. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { DEFAULT_PORT, IPERF3_DEFAULT_PORT } from '../../contract/api.js';
import { Responder } from '../../engine/session/responder.js';
import { DEFAULT_RESPONDER_LIMITS } from '../../engine/session/responder-limits.js';
import { shortFingerprint } from '../../security/identity.js';
import { loadCliTrust } from '../cli-trust.js';
import { formatCode } from '../../security/pairing-code.js';
import { ResponderSecurity } from '../../security/responder-security.js';
import { advertise } from '../../discovery/dns-sd.js';
import { ArgumentError, describeError } from '../../util/errors.js';
import { localAddresses } from '../../util/net.js';
import { parseSize } from '../../util/units.js';
import { formatRate, groupDigits } from '../../contract/units.js';
import { rateText } from '../../contract/partial-text.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { intIn } from '../run-options.js';
import { onStop } from '../stop-signals.js';
import { listenIperf3 } from '../listen-iperf3.js';
import { addExamples, addHelpBlock, termLines } from '../help-layout.js';
import { TurnedAwayLog } from '../turned-away-log.js';
import { ServedHistory } from '../served-history.js';

interface ListenFlags {
  port?: number;
  iperf3?: boolean;
  bind?: string;
  once?: boolean;
  workers?: number;
  pairingCode?: string;
  pairingCodeFile?: string;
  /** false with --no-pairing */
  pairing: boolean;
  maxStreams?: number;
  maxSeconds?: number;
  maxBytes?: string;
  maxWindow?: string;
  /** false with --no-advertise */
  advertise: boolean;
  /** false with --no-record */
  record: boolean;
}

/** Advertising a responder bound to loopback would announce a service nobody else can reach. */
function isLoopback(addr: string): boolean {
  return addr.startsWith('127.') || addr === '::1' || addr === 'localhost';
}

function positive(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`"${v}" is not a positive whole number`);
  return Number(v);
}

/** The code to open pairing with: flag, file, environment; undefined = a fresh random one. */
function givenCode(flags: ListenFlags): string | undefined {
  if (flags.pairingCode) return flags.pairingCode;
  if (flags.pairingCodeFile) {
    try {
      return readFileSync(flags.pairingCodeFile, 'utf8').trim();
    } catch (err) {
      throw new ArgumentError(`cannot read ${flags.pairingCodeFile}: ${describeError(err).message}`, '--pairing-code-file');
    }
  }
  return process.env.LONGHAUL_PAIRING_CODE || undefined;
}

function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError(`"${v}" is not a port number (0-65535)`);
  return Number(v);
}

export function register(program: Command): void {
  const cmd = program
    .command('listen')
    .description('wait for a partner: be the responder of runs started from another PC')
    .optionsGroup('Listen (server):')
    .option('-p, --port <port>', `TCP port for control and data (0 = any free port; default ${DEFAULT_PORT}, with --iperf3 ${IPERF3_DEFAULT_PORT})`, port)
    .option('--iperf3', 'be an iperf3 server instead: serve `iperf3 -c` clients (TCP, no pairing)')
    .option('-B, --bind <addr>', 'listen on this address only (default: all)')
    .option('-1, --once', 'serve one run, then exit (exit code 1 if it failed)')
    .addOption(new Option('--workers <n>', 'data worker processes per role').argParser(intIn(1, 64, 'workers')).hideHelp())
    .option('--pairing-code <code>', 'accept one pairing with this code instead of a random one (scripts; see below)')
    .option('--pairing-code-file <file>', 'read the pairing code from this file (keep it readable by you only)')
    .option('--no-pairing', 'accept no pairing: only PCs paired before may run tests')
    .option('--max-streams <n>', `most streams a controller may ask for (default ${DEFAULT_RESPONDER_LIMITS.maxStreams})`, positive)
    .option('--max-seconds <s>', `longest run a controller may ask for, seconds (default ${DEFAULT_RESPONDER_LIMITS.maxSeconds})`, positive)
    .option('--max-bytes <size>', 'most bytes one run may move through this PC, both ways together (default 64T)')
    .option('--max-window <size>', `largest window a controller may ask for per stream end (default ${DEFAULT_RESPONDER_LIMITS.maxWindowBytes / 1024 / 1024}M)`)
    .option('--no-advertise', 'do not announce this responder on the LAN (DNS-SD; never done on loopback)')
    .option('--no-record', 'keep no result of the runs served (default: each goes to History, as the app keeps them)')
    .helpOption(true); // made now, -h takes the heading too
  addHelpBlock(cmd, 'Notes:', [
    ...termLines('--pairing-code', 'other users of this PC can read it in `ps`: prefer $LONGHAUL_PAIRING_CODE or --pairing-code-file', 16),
    ...termLines(
      '--no-record',
      "without it, each run served is saved to the results folder ($LONGHAUL_DATA_DIR, else the app's); `longhaul history` lists them",
      16,
    ),
    ...termLines(
      '--max-bytes',
      'also in time-limited runs, held per stream end (an equal share each) whatever the controller does; 64T is more than an hour at 100 Gbit/s',
      16,
    ),
  ]);
  addExamples(cmd, ['longhaul listen', 'longhaul listen -p 6000 --once', 'longhaul listen --iperf3']);
  cmd.action(async (flags: ListenFlags) => {
    const limits = {
      ...(flags.maxStreams ? { maxStreams: flags.maxStreams } : {}),
      ...(flags.maxSeconds ? { maxSeconds: flags.maxSeconds } : {}),
      ...(flags.maxBytes ? { maxBytes: parseSize(flags.maxBytes, '--max-bytes') } : {}),
      ...(flags.maxWindow ? { maxWindowBytes: parseSize(flags.maxWindow, '--max-window') } : {}),
    };
    if (flags.iperf3) {
      await listenIperf3({ port: flags.port ?? IPERF3_DEFAULT_PORT, bind: flags.bind, once: flags.once, workers: flags.workers, limits, record: flags.record });
      return;
    }
    const listenPort = flags.port ?? DEFAULT_PORT;
    const code = givenCode(flags);
    const trust = await loadCliTrust();
    const security = new ResponderSecurity({ identity: trust.identity, peers: trust.peers, pairingCode: flags.pairing ? (code ?? null) : null });
    if (flags.pairing && !code) security.openPairing();
    const responder = new Responder({ port: listenPort, host: flags.bind, maxWorkersPerRole: flags.workers, security, limits });
    let addr;
    try {
      addr = await responder.listen();
    } catch (err) {
      process.stderr.write(`longhaul: cannot listen on port ${listenPort}: ${describeError(err).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
      return;
    }
    process.stdout.write(`Longhaul responder on ${os.hostname()}, listening on ${addr.address}:${addr.port}\n`);
    const addrs = localAddresses();
    const portTail = addr.port === DEFAULT_PORT ? '' : `:${addr.port}`;
    const loopbackOnly = /^(127\.|::1$)/.test(addr.address);
    const target = loopbackOnly ? `${addr.address.includes(':') ? `[${addr.address}]` : addr.address}` : '<one of these addresses>';
    if (loopbackOnly) process.stdout.write(`Bound to a loopback address: only this PC can connect\n`);
    else if (addrs.length) process.stdout.write(`This PC's addresses: ${addrs.join(', ')}\n`);
    process.stdout.write(`This PC is ${trust.identity.name}, fingerprint ${shortFingerprint(trust.identity.fingerprint)}\n`);
    const showCode = (): void => {
      if (!security.pairingCode) return;
      process.stdout.write(
        `Pairing code: ${formatCode(security.pairingCode)} (one use). To pair, on the other PC run: longhaul pair ${target}${portTail} --code ${formatCode(security.pairingCode)}\n`,
      );
    };
    showCode();
    process.stdout.write(`Paired PCs run: longhaul run ${target}${portTail}\n`);
    security.on('paired', (p) => {
      process.stdout.write(`paired with ${p.name} (${p.address}), fingerprint ${shortFingerprint(p.fingerprint)}\n`);
      if (flags.pairing && !code) {
        security.openPairing();
        showCode();
      }
    });
    security.on('trust-error', (message) => process.stderr.write(`longhaul: ${message}; every controller is a stranger until it can be read\n`));
    security.on('pairing-failed', (peer, errCode, message) => process.stdout.write(`pairing from ${peer} refused: ${errCode}: ${message}\n`));
    process.send?.({ type: 'listening', port: addr.port, address: addr.address });

    const ad = flags.advertise && !isLoopback(addr.address) ? advertise(trust.identity.name, addr.port, trust.identity.fingerprint) : null;
    // Counts per address per interval, not a line per connection: a flood must not flood the log.
    const turnedAway = new TurnedAwayLog({ write: (line) => process.stdout.write(`${line}\n`) });
    responder.on('rejected', (peer, why) => turnedAway.note(peer, why));
    responder.on('session', (s) => {
      process.stdout.write(`controller connected from ${s.channel.remoteAddress}\n`);
    });
    // Saves in order, and the process waits for the last before it exits.
    const history = new ServedHistory(flags.record, 'run');
    let stopListening = (): void => {};
    await new Promise<void>((resolve) => {
      // Ctrl-C, Ctrl-Break, a closed console, SIGTERM; as loopback's responder: SIGTERM or the parent's exit.
      stopListening = onStop(resolve);
      responder.on('session-end', (result, err) => {
        if (result?.params.purpose === 'path-capacity') {
          process.stdout.write(`run ${result.id}: the controller measured the path (Longhaul's tuned run, cut once measured)\n`);
        } else if (result) {
          const t = result.total;
          process.stdout.write(
            `run ${result.id} ${result.partial ? 'ended early' : 'complete'}: ${groupDigits(t.bytes)} bytes received, ${t.partialRate ? rateText(t) : `${formatRate(t.bitsPerSecond)} wall-clock aggregate`}\n`,
          );
        }
        if (result) history.save(result);
        if (err) process.stdout.write(`session ended: ${err.code}: ${err.message}\n`);
        if (flags.once) {
          process.exitCode = err || result?.partial || !result ? EXIT_RUN_FAILED : EXIT_OK;
          void history.settled().then(() => resolve());
        }
      });
    });
    stopListening();
    turnedAway.close();
    await ad?.stop();
    await responder.close();
    await history.settled();
    if (history.anyFailed && flags.once) process.exitCode = EXIT_RUN_FAILED;
  });
}
