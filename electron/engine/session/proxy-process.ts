/**
 * Run `longhaul proxy` as a child process (its own event loop: the proxy
 * carries every data byte, the controller's loop must stay free) and keep
 * the run's link record: settings, chains, and every bypass switch with its
 * time since the run's start.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EmulatorWatchInfo, LinkInfo } from '../../contract/link-info.js';
import type { RunLinkHook } from './run-handle.js';
import { linkInfo } from '../../proxy/describe-link.js';
import type { LinkSpec } from '../../proxy/link-settings.js';
import type { FromProxyProcess, ToProxyProcess } from '../../proxy/process-messages.js';
import { FORK_EXEC_ARGV } from '../../util/gc-schedule.js';

const BIN = fileURLToPath(new URL('../../../../bin/longhaul.js', import.meta.url));

export class ProxyProcess {
  private readonly toggles: LinkInfo['bypassToggles'] = [];
  private startNs: bigint | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private lossStats: NonNullable<LinkInfo['modelledLoss']> | null = null;
  private emulator: EmulatorWatchInfo | null = null;
  private udp: NonNullable<LinkInfo['udpRelay']> | null = null;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    private readonly spec: LinkSpec,
    private readonly preset: string | null,
    /** `host:port` the proxy forwards to: the result names the real partner, not the proxy's local port. */
    private readonly target: string,
  ) {
    child.on('message', (m: FromProxyProcess) => {
      if (m.type === 'bypass' && this.startNs !== null) {
        this.toggles.push({ t: Number(BigInt(m.atNs) - this.startNs) / 1e9, bypass: m.bypass });
      }
      if (m.type === 'link-stats') {
        this.lossStats = m.loss.up || m.loss.down ? m.loss : null;
        this.emulator = m.emulator;
        this.udp = m.udp;
      }
    });
  }

  /** Start a proxy on 127.0.0.1, any free port, forwarding to `targetHost:targetPort` (default 127.0.0.1). */
  static start(targetPort: number, spec: LinkSpec, preset: string | null, targetHost = '127.0.0.1'): Promise<ProxyProcess> {
    return new Promise((resolve, reject) => {
      const target = targetHost.includes(':') ? `[${targetHost}]:${targetPort}` : `${targetHost}:${targetPort}`;
      const args = ['proxy', '--listen', '0', '--target', target, '--link-json', JSON.stringify(spec.settings ?? spec.chains)];
      const child = fork(BIN, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [...FORK_EXEC_ARGV] });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the link proxy did not start within 10 s'));
      }, 10_000);
      child.once('message', (m: FromProxyProcess) => {
        if (m.type !== 'listening') return;
        clearTimeout(timer);
        resolve(new ProxyProcess(child, m.port, spec, preset, target));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the link proxy exited early (code ${code})`));
      });
    });
  }

  /** The hook a run gets: starts the bypass schedule at t = 0 and builds the link record. */
  hook(bypassAtSeconds: number[] = []): RunLinkHook {
    return {
      onStart: () => {
        this.startNs = process.hrtime.bigint();
        bypassAtSeconds.forEach((s, i) => {
          this.timers.push(setTimeout(() => this.send({ type: 'bypass', on: i % 2 === 0 }), s * 1000));
        });
      },
      record: () => linkInfo(this.spec, this.preset, this.toggles, this.lossStats, this.emulator, this.target, this.udp),
      refresh: () => this.refreshStats(),
      forwardPort: (targetPort) => this.forward(targetPort),
      forwardUdpPort: (targetPort) => this.forward(targetPort, 'udp'),
    };
  }

  /** Have the proxy carry connections (or, `udp`, datagrams) to another port of its target through the same link; resolves with its local port. */
  forward(targetPort: number, protocol: 'tcp' | 'udp' = 'tcp'): Promise<number> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: FromProxyProcess): void => {
        if (m.type !== 'forwarding' || m.targetPort !== targetPort || (m.protocol ?? 'tcp') !== protocol) return;
        clearTimeout(timer);
        this.child.off('message', onMessage);
        if (m.port !== null) resolve(m.port);
        else reject(new Error(`the link proxy cannot forward port ${targetPort}: ${m.error ?? 'unknown error'}`));
      };
      const timer = setTimeout(() => {
        this.child.off('message', onMessage);
        reject(new Error(`the link proxy did not answer a forward of port ${targetPort} within 5 s`));
      }, 5000);
      this.child.on('message', onMessage);
      this.send({ type: 'forward', targetPort, ...(protocol === 'udp' ? { protocol } : {}) });
    });
  }

  /** Ask the proxy for its figures now (loss counters, its watch on itself); resolves when they arrive, or after 1 s. */
  refreshStats(): Promise<void> {
    if (!this.child.connected) return Promise.resolve();
    return new Promise((resolve) => {
      // Registered after the constructor's listener: the counters are stored when this one runs.
      const done = (): void => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        resolve();
      };
      const onMessage = (m: FromProxyProcess): void => {
        if (m.type === 'link-stats') done();
      };
      const timer = setTimeout(done, 1000);
      this.child.on('message', onMessage);
      this.send({ type: 'report-stats' });
    });
  }

  /** The loss model's counters as last reported (null: no loss stage, or nothing reported yet). */
  get modelledLoss(): LinkInfo['modelledLoss'] | null {
    return this.lossStats;
  }

  /** The emulator's own figures as last reported (null: nothing reported yet). */
  get emulatorWatch(): EmulatorWatchInfo | null {
    return this.emulator;
  }

  get bypassToggles(): LinkInfo['bypassToggles'] {
    return this.toggles;
  }

  send(m: ToProxyProcess): void {
    if (this.child.connected) this.child.send(m);
  }

  /** Ask the proxy to exit; kill it if it has not within 3 s. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.send({ type: 'close' });
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(kill);
  }
}
