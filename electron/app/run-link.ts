/**
 * A UI run through the link emulator: the delay proxy runs on this PC (in its
 * own process, as `longhaul loopback --link` does, so the proxy's byte pump
 * never shares an event loop with the UI host) and forwards to the partner —
 * the app's own responder for "Both on this PC", a remote `longhaul listen`
 * otherwise. The controller dials the proxy; the result records the link.
 *
 *   UI host ──controller──► 127.0.0.1:proxy ──emulated link──► partner:port
 *
 * The bypass switch is confirmed by the proxy before the UI is told, so what
 * the Run screen shows is what the proxy did, and each switch lands in
 * `result.link.bypassToggles` with its run time.
 */
import type { BypassState, LinkChoice, UiLinkPreset } from '../contract/api.js';
import type { RunLinkHook } from '../engine/session/run-handle.js';
import { ProxyProcess } from '../engine/session/proxy-process.js';
import type { FromProxyProcess } from '../proxy/process-messages.js';
import { parseLinkSpec } from '../proxy/link-settings.js';
import { LINK_PRESETS } from '../proxy/presets.js';
import { LonghaulError } from '../util/errors.js';

/** How long the proxy has to confirm a bypass switch. */
const BYPASS_CONFIRM_MS = 3000;

/** The presets, as plain data for the Link screen (the renderer never imports electron/proxy). */
export function uiLinkPresets(): UiLinkPreset[] {
  return LINK_PRESETS.map((p) => ({ name: p.name, label: p.label, about: p.about, settings: { ...p.settings } }));
}

export class RunLink {
  private started = false;
  private stopped: Promise<void> | null = null;

  private constructor(private readonly proxy: ProxyProcess) {}

  /** Start the proxy toward the partner; resolves once it listens. Settings are validated again here. */
  static async start(target: { host: string; port: number }, choice: Extract<LinkChoice, { kind: 'proxy' }>): Promise<RunLink> {
    const spec = parseLinkSpec(choice.settings);
    try {
      return new RunLink(await ProxyProcess.start(target.port, spec, choice.preset, target.host));
    } catch (err) {
      throw new LonghaulError('LH_ERR_IO', `the link emulator (delay proxy) did not start: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Where the controller connects. */
  get port(): number {
    return this.proxy.port;
  }

  /** The engine's hook: t = 0 when the data starts; the link record for the result. */
  hook(): RunLinkHook {
    const inner = this.proxy.hook();
    return {
      onStart: () => {
        this.started = true;
        inner.onStart?.();
      },
      record: () => inner.record(),
      refresh: () => inner.refresh?.() ?? Promise.resolve(),
      forwardPort: (targetPort) => this.proxy.forward(targetPort),
      forwardUdpPort: (targetPort) => this.proxy.forward(targetPort, 'udp'),
    };
  }

  /** Switch the bypass and wait for the proxy to confirm it (the toggle is then recorded). */
  async setBypass(runId: string, on: boolean): Promise<BypassState> {
    if (!this.started) throw new LonghaulError('LH_ERR_BUSY', 'the bypass switch works once the data is flowing: wait for "Running"');
    if (this.stopped) throw new LonghaulError('LH_ERR_STOPPED', 'the run has ended: the link proxy is gone');
    const current = this.proxy.bypassToggles.at(-1)?.bypass ?? false;
    if (current !== on) await this.confirmed(on);
    return this.state(runId);
  }

  state(runId: string): BypassState {
    const toggles = this.proxy.bypassToggles.map((b) => ({ ...b }));
    return { runId, bypass: toggles.at(-1)?.bypass ?? false, toggles };
  }

  /** Stop the proxy process. Idempotent. */
  stop(): Promise<void> {
    this.stopped ??= this.proxy.stop();
    return this.stopped;
  }

  private confirmed(on: boolean): Promise<void> {
    const child = this.proxy.child;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new LonghaulError('LH_ERR_TIMEOUT', `the link proxy did not confirm the bypass switch within ${BYPASS_CONFIRM_MS} ms`));
      }, BYPASS_CONFIRM_MS);
      // ProxyProcess's own listener was added first, so the toggle is recorded when this one runs.
      function onMessage(m: FromProxyProcess): void {
        if (m.type !== 'bypass' || m.bypass !== on) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve();
      }
      child.on('message', onMessage);
      this.proxy.send({ type: 'bypass', on });
    });
  }
}
