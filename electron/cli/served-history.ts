/**
 * What `longhaul listen` (and `listen --iperf3`) keeps of the runs it serves: each result goes to
 * History, the same results folder and store as the app's responder (app/history-store.ts,
 * app/data-dir.ts: `$LONGHAUL_DATA_DIR`, else the app's), so `longhaul history` and the app list
 * them. Saved one after another, so the process can wait for the last before it exits; with
 * `--no-record` nothing is written.
 */
import { resultsDir } from '../app/data-dir.js';
import { HistoryStore } from '../app/history-store.js';
import type { LonghaulResult } from '../contract/result.js';

/** Saves a listener's served runs to History, in order. */
export class ServedHistory {
  private readonly store: HistoryStore | null;
  private saving: Promise<void> = Promise.resolve();
  private failed = false;

  /** `record` false (`--no-record`): nothing is saved; `noun` names a run in the lines ("run", iperf3's "test"). */
  constructor(
    record: boolean,
    private readonly noun: string,
  ) {
    this.store = record ? new HistoryStore(resultsDir()) : null;
  }

  /**
   * Queue `result` for History, saying where it went (or why not) on the console; `then` gets the file (null:
   * not saved). The controller's path measurement after its run (--capacity) is no run of the user's: never
   * saved, as the app's responder leaves it out.
   */
  save(result: LonghaulResult, then: (savedPath: string | null) => void = () => {}): void {
    const store = this.store;
    this.saving = this.saving.then(async () => {
      if (!store || result.params.purpose === 'path-capacity') return then(null);
      const { savedPath, saveError } = await store.trySave(result);
      if (savedPath) process.stdout.write(`saved to History: ${savedPath}\n`);
      else {
        this.failed = true;
        process.stderr.write(`longhaul: ${this.noun} ${result.id} was not saved to History (${store.dir}): ${saveError}\n`);
      }
      then(savedPath);
    });
  }

  /** Resolves once every result queued so far is saved (or failed to be). */
  settled(): Promise<void> {
    return this.saving;
  }

  /** Whether a save failed (a `--once` listener then exits 1: the run was served, but not kept as asked). */
  get anyFailed(): boolean {
    return this.failed;
  }
}
