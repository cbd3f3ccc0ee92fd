/**
 * `longhaul proxy`: the link emulator on its own. Listens locally and
 * forwards every connection to the target through the emulated link.
 * Keys (on a terminal): b toggles bypass, q quits. When started by another
 * longhaul process (IPC), it reports `listening`, each bypass switch and the
 * loss model's counters, and takes `bypass` and `configure` messages. On a
 * terminal it prints the loss model's counters when it quits.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { LinkProxy } from '../../proxy/link-proxy.js';
import { describeEmulatorWatch } from '../../contract/emulator-text.js';
import { describeLink, describeModelledLoss } from '../../proxy/describe-link.js';
import { parseLinkSpec } from '../../proxy/link-settings.js';
import type { FromProxyProcess, ToProxyProcess } from '../../proxy/process-messages.js';
import { describeError } from '../../util/errors.js';
import { EXIT_RUN_FAILED } from '../exit-codes.js';
import { addLinkOptions, linkSpecFromFlags, type LinkFlags } from '../link-options.js';
import { onStop } from '../stop-signals.js';
import { parseHostPort } from '../../util/net.js';
import { addExamples } from '../help-layout.js';

interface ProxyFlags extends LinkFlags {
  listen: number;
  bind: string;
  target: string;
}

const STATS_REPORT_MS = 100;

function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError(`"${v}" is not a port number (0-65535)`);
  return Number(v);
}

export function register(program: Command): void {
  const cmd = program
    .command('proxy')
    .summary('the link emulator alone: forward connections through an emulated link')
    .description('link emulator: forward connections to a target through an emulated link (delay, rate, window, slow start, modelled loss)')
    .optionsGroup('Proxy:')
    .requiredOption('--listen <port>', 'local port to listen on (0 = any free port)', port)
    .requiredOption('--target <host:port>', 'where to forward every connection, e.g. 127.0.0.1:5211')
    .option('--bind <addr>', 'listen address', '127.0.0.1')
    .helpOption(true); // made now, -h takes the heading too
  addLinkOptions(cmd, { presetFlag: '--preset', window: true });
  addExamples(cmd, [
    'longhaul proxy --listen 6000 --target 192.168.1.20:5211 --preset satellite',
    'longhaul proxy --listen 0 --target 127.0.0.1:5211 --delay 50ms --rate 10mbit',
  ]);
  cmd.action(async (flags: ProxyFlags) => {
    const target = parseHostPort(flags.target, 0);
    const link = linkSpecFromFlags(flags) ?? { spec: parseLinkSpec({ up: [], down: [] }), preset: null };
    const proxy = new LinkProxy({ target, link: link.spec, host: flags.bind, port: flags.listen });
    let addr;
    try {
      addr = await proxy.listen();
    } catch (err) {
      process.stderr.write(`longhaul: cannot listen on ${flags.bind}:${flags.listen}: ${describeError(err).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
      return;
    }
    const tell = (m: FromProxyProcess): void => void (process.connected && process.send?.(m));
    process.stdout.write(`Longhaul link proxy: ${addr.address}:${addr.port} -> ${target.host}:${target.port}\n`);
    for (const line of describeLink(link.spec, link.preset)) process.stdout.write(line + '\n');
    tell({ type: 'listening', port: addr.port, address: addr.address });
    let lastStats = '';
    const reportStats = (always = false): void => {
      const loss = proxy.lossStats();
      const emulator = proxy.emulatorFigures();
      const udp = proxy.udpFigures();
      // CPU time changes every tick: only the traffic figures decide whether anything changed.
      const text = JSON.stringify([loss, emulator.up, emulator.down, udp]);
      if (always || text !== lastStats) {
        lastStats = text;
        tell({ type: 'link-stats', loss, emulator, udp });
      }
    };
    const statsTimer = process.connected ? setInterval(() => reportStats(), STATS_REPORT_MS) : null;

    proxy.on('bypass', (on) => {
      tell({ type: 'bypass', bypass: on, atNs: process.hrtime.bigint().toString() });
      if (!process.connected) process.stdout.write(`bypass ${on ? 'ON: all stages off' : 'OFF: link emulated again'}\n`);
    });
    proxy.on('connection-error', (err) => {
      tell({ type: 'connection-error', code: err.code, message: err.message });
      process.stderr.write(`${err.code}: ${err.message}\n`);
    });
    let stopListening = (): void => {};
    await new Promise<void>((resolve) => {
      // On a terminal: Ctrl-C, Ctrl-Break, a closed console, SIGTERM. Forked by a run: SIGTERM, `close` or the parent's exit,
      // never the console's Ctrl-C, which would cut the run's connections before the run has stopped.
      stopListening = onStop(resolve);
      process.on('message', (m: ToProxyProcess) => {
        if (m.type === 'bypass') proxy.setBypass(m.on);
        else if (m.type === 'close') resolve();
        else if (m.type === 'report-stats') reportStats(true);
        else if (m.type === 'forward') {
          const protocol = m.protocol === 'udp' ? ({ protocol: 'udp' } as const) : {};
          (m.protocol === 'udp' ? proxy.forwardUdp(m.targetPort) : proxy.forward(m.targetPort)).then(
            (p) => tell({ type: 'forwarding', targetPort: m.targetPort, ...protocol, port: p, error: null }),
            (err) => tell({ type: 'forwarding', targetPort: m.targetPort, ...protocol, port: null, error: describeError(err).message }),
          );
        } else if (m.type === 'configure') {
          try {
            proxy.configure(parseLinkSpec(m.link));
          } catch (err) {
            process.stderr.write(`longhaul proxy: configuration rejected: ${describeError(err).message}\n`);
          }
        }
      });
      if (process.stdin.isTTY) {
        process.stdout.write('keys: b = toggle bypass, q = quit\n');
        process.stdin.setRawMode(true);
        process.stdin.resume();
        process.stdin.on('data', (k: Buffer) => {
          const key = k.toString();
          if (key === 'b') proxy.setBypass(!proxy.bypass);
          if (key === 'q' || key === '\u0003') resolve();
        });
      }
    });
    stopListening();
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    process.stdin.pause();
    if (statsTimer) clearInterval(statsTimer);
    reportStats();
    const stats = proxy.lossStats();
    if (!process.connected && (stats.up || stats.down)) process.stdout.write(describeModelledLoss(stats) + '\n');
    if (!process.connected) process.stdout.write(`emulator: ${describeEmulatorWatch(proxy.emulatorFigures())}\n`);
    await proxy.close();
    process.exit(process.exitCode ?? 0);
  });
}
