/**
 * Last-resort teardown: whatever harness links are still alive when the
 * process exits or is interrupted (SIGINT, SIGTERM, SIGHUP) are torn down
 * synchronously. A test that fails or hangs therefore leaves no namespace,
 * veth, iptables rule or helper process behind; and if the process is killed
 * with SIGKILL, the next run's sweep (netns.ts) removes the leftovers.
 */

/** Something that can tear itself down without awaiting anything. */
interface SyncDestroyable {
  destroySync(): void;
}

const live = new Set<SyncDestroyable>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;

function destroyAll(): void {
  for (const item of [...live]) {
    live.delete(item);
    try {
      item.destroySync();
    } catch {
      // keep going: the other links must still be torn down
    }
  }
}

function onExit(): void {
  destroyAll();
}

function onSignal(sig: NodeJS.Signals): void {
  destroyAll();
  uninstall();
  // Die of the same signal, as if no handler had been installed.
  process.kill(process.pid, sig);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const sig of SIGNALS) process.on(sig, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const sig of SIGNALS) process.off(sig, onSignal);
}

/** Track a live link; its destroySync() runs if the process ends first. */
export function trackForTeardown(item: SyncDestroyable): void {
  live.add(item);
  install();
}

/** Stop tracking (after a normal destroy). Handlers go away with the last link. */
export function untrackForTeardown(item: SyncDestroyable): void {
  live.delete(item);
  if (live.size === 0) uninstall();
}
