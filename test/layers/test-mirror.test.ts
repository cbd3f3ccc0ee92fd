/**
 * Unit tests mirror the source: a module with logic in electron/engine/session, engine/data-plane,
 * proxy, analysis or security has its test at test/<its path below electron/ without .ts>.test.ts
 * (electron/proxy/chain.ts → test/proxy/chain.test.ts). "Logic" is kept simple: a line that starts
 * (after an optional `export` / `export default`) a function, a class, or a `const` / `let` whose
 * value is a function or an arrow; a file of types, constants and re-exports has none. A module with
 * logic and no mirror fails here unless ALLOWED names it with why: that list is the to-do list, and
 * an entry whose module gains a mirror (or loses its logic, or goes) fails too, so it only shrinks.
 * The checker is first shown to flag a made-up tree's missing mirrors, and only those.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { sourceFiles } from '../helpers/imports.js';
import { REPO } from '../helpers/processes.js';

/** The folders below electron/ whose modules must have a mirrored test. */
const MIRRORED = ['engine/session', 'engine/data-plane', 'proxy', 'analysis', 'security'];

/** A top-level function, class, or const/let holding a function or an arrow. */
const LOGIC =
  /^(export\s+)?(default\s+)?(async\s+function|function|abstract\s+class|class)\s|^(export\s+)?(const|let)\s+[\w$]+\s*(:[^=]+)?=\s*(async\s+)?(function\b|(\([^)]*\)|[\w$]+)\s*(:[^=]+)?=>)/m;

/** Whether a module's text has logic by the rule above. */
function hasLogic(text: string): boolean {
  return LOGIC.test(text);
}

/** The mirrored test of a module given by its path below electron/. */
function mirrorOf(module: string): string {
  return path.posix.join('test', module.replace(/\.ts$/, '.test.ts'));
}

/** Modules (paths below electron/) with logic and no mirrored test. */
function missingMirrors(modules: Map<string, string>, testExists: (testPath: string) => boolean): string[] {
  return [...modules]
    .filter(([m, text]) => hasLogic(text) && !testExists(mirrorOf(m)))
    .map(([m]) => m)
    .sort();
}

/** Every module below the mirrored folders, by its path below electron/, with its text. */
function repoModules(): Map<string, string> {
  const electron = path.join(REPO, 'electron');
  const files = MIRRORED.flatMap((d) => sourceFiles(path.join(electron, d), /\.ts$/, []));
  return new Map(files.map((f) => [path.relative(electron, f).split(path.sep).join('/'), readFileSync(f, 'utf8')]));
}

const WHOLE_RUN = 'covered by whole-run tests (real sockets, both ends: test/engine/run.test.ts, faults, *-run.test.ts)';
const DATA_WORKER = 'covered through the worker harness in test/engine/data-worker/ (left there: its harness imports electron/native/)';
const NATIVE = 'needs the native addon and real sockets; covered by test/engine/run.test.ts and test/native/';
const ADVICE = 'covered through test/analysis/advice/advise.test.ts and the verdict cases; a file of its own to write';
const PAIRING = 'covered by test/security/pairing.test.ts and refusals.test.ts over real TLS; no unit test of its own yet';

/** Modules with logic and no mirrored test yet, each with why (the to-do list). */
const ALLOWED: Record<string, string> = {
  'engine/session/capacity-run.ts': 'partly in test/engine/session/capacity-plan.test.ts (attachCapacity); the run itself in test/cli/capacity-cli.test.ts',
  'engine/session/control-pinger.ts': `${WHOLE_RUN}: round trips over a live control channel (the fake channel of test/helpers/fake-session.ts answers no ping)`,
  'engine/session/controller-streams.ts': `${WHOLE_RUN}: opens the data connections`,
  'engine/session/session-data-plane.ts': `${WHOLE_RUN}: forwards the session's calls to DataPlane (controller-streams.ts, udp-session.ts); the sessions' own tests use a fake plane`,
  'engine/session/local-responder.ts': 'forks `longhaul listen`; covered by test/cli/ loopback runs and test/e2e/',
  'engine/session/local-settings.ts': 'reads this PC (/proc/sys, sysctl, netsh); covered by test/analysis/advice/ and test/app/link-run.test.ts',
  'engine/session/proxy-process.ts': 'forks `longhaul proxy`; covered by test/proxy/longhaul-run.test.ts and test/cli/',
  'engine/session/responder-listener.ts': `${WHOLE_RUN}: a listening socket per run`,
  'engine/session/responder.ts': `${WHOLE_RUN}: the responder's port`,
  'engine/session/tcp-results.ts': `${WHOLE_RUN}: needs native stream ends`,
  'engine/session/udp-session.ts': 'covered by test/cli/udp-cli.test.ts and test/engine/iperf3-udp.test.ts over real sockets',
  'engine/data-plane/data-plane.ts': 'worker processes; covered by test/engine/udp/udp-plane.test.ts and the whole-run tests',
  'engine/data-plane/data-worker/backlog-bound.ts': DATA_WORKER,
  'engine/data-plane/data-worker/congestion.ts': 'sets TCP_CONGESTION on a socket; covered by test/cli/congestion-cli.test.ts',
  'engine/data-plane/data-worker/drain.ts': DATA_WORKER,
  'engine/data-plane/data-worker/index.ts': 'the worker process entry; covered by every run and test/packaging/',
  'engine/data-plane/data-worker/native-loop.ts': NATIVE,
  'engine/data-plane/data-worker/native-pump.ts': NATIVE,
  'engine/data-plane/data-worker/node-loop.ts': DATA_WORKER,
  'engine/data-plane/data-worker/pacing.ts': 'covered by test/cli/bitrate-cli.test.ts and test/engine/iperf3-bitrate.test.ts',
  'engine/data-plane/data-worker/stop-watchdog.ts': 'tested in test/engine/data-worker/stop-watchdog.test.ts (not moved: its harness imports electron/native/)',
  'engine/data-plane/data-worker/stream.ts': DATA_WORKER,
  'engine/data-plane/data-worker/windows-owned-loop.ts': NATIVE,
  'engine/data-plane/data-worker/worker.ts': DATA_WORKER,
  'engine/data-plane/plane-drain.ts': `${WHOLE_RUN}: answers from worker processes`,
  'engine/data-plane/send-backlog.ts': 'tested in test/engine/send-backlog.test.ts (not moved: it imports electron/native/)',
  'engine/data-plane/stream-socket.ts': NATIVE,
  'engine/data-plane/udp/iperf3-connect.ts': 'covered by test/engine/iperf3-udp.test.ts against a real iperf3',
  'engine/data-plane/udp/udp-receiver.ts': 'covered by test/engine/udp/udp-loopback.test.ts and data-worker/udp-worker.test.ts over real sockets',
  'engine/data-plane/udp/udp-sender.ts': 'covered by test/engine/udp/udp-loopback.test.ts over real sockets',
  'engine/data-plane/udp/udp-setup.ts': 'covered by test/engine/udp/udp-plane.test.ts (two planes with real workers)',
  'engine/data-plane/windows-owned-listener.ts': 'tested in test/engine/windows-owned-listener.test.ts (not moved: it imports electron/native/)',
  'proxy/byte-mover.ts': 'covered through test/proxy/integrity.test.ts and backpressure.test.ts over real sockets',
  'proxy/link-proxy.ts': 'real sockets; covered by test/proxy/integrity, bad-input, backpressure and the stage tests',
  'proxy/link-settings.ts': 'covered by test/proxy/presets.test.ts, link-limits.test.ts and bad-input.test.ts',
  'proxy/native-mover.ts': NATIVE,
  'proxy/pipe.ts': 'covered through test/proxy/stages/ and integrity.test.ts over a real LinkProxy',
  'proxy/proxy-connection.ts': 'covered by test/proxy/backpressure.test.ts and integrity.test.ts over real sockets',
  'proxy/relay-mode.ts': 'chooses a mover from the native data path; covered by test/proxy/helpers.ts RELAYS in every proxy test',
  'proxy/stage.ts': 'the stage contract and seededRandom; covered by test/proxy/stages/ and chain.test.ts',
  'analysis/advice/emulated.ts': 'covered by test/analysis/advice/emulated-run.test.ts and emulated-commands.test.ts',
  'analysis/advice/linux.ts': ADVICE,
  'analysis/advice/os-rules.ts': 'covered by test/contract/door.test.ts',
  'analysis/advice/verdict-lines.ts': ADVICE,
  'analysis/advice/windows-legacy.ts': ADVICE,
  'analysis/advice/windows.ts': ADVICE,
  'analysis/limiter.ts': 'covered by test/analysis/verdicts/ (one file per verdict rule it asks in order) and diagnosis.test.ts',
  'analysis/verdicts/context.ts': "the rules' shared reader; covered by every test/analysis/verdicts/ file",
  'security/controller-security.ts': PAIRING,
  'security/identity.ts': 'covered by test/security/pairing.test.ts, persistence.test.ts and the app pairing tests',
  'security/load-trust.ts': 'covered by test/security/trust-protection.test.ts and every paired run',
  'security/pair-client.ts': PAIRING,
  'security/pair-messages.ts': PAIRING,
  'security/pair-server.ts': PAIRING,
  'security/pairing-code.ts': PAIRING,
  'security/private-files.ts': 'covered by test/security/trust-protection.test.ts',
  'security/responder-security.ts': `${PAIRING}; refused names in test/app/refused-log.test.ts`,
  'security/secure-gate.ts': 'real TLS; covered by test/security/cookie, refusals, junk-flood and fuzz tests',
  'security/trust-dir.ts': 'covered by test/security/trust-protection.test.ts',
  'security/windows-acl.ts': 'covered by test/security/trust-protection.test.ts (icacls steps) and the Windows lane',
};

describe('tests mirror the source', () => {
  it('the checker flags a module with logic and no mirror, and nothing else', () => {
    const modules = new Map([
      ['proxy/tested.ts', 'export function run(): void {}\n'],
      ['proxy/untested.ts', 'import x from "y";\n\nexport class Pump {\n  go() {}\n}\n'],
      ['proxy/arrow.ts', 'const half = (n: number): number => n / 2;\nexport { half };\n'],
      ['proxy/typed-arrow.ts', 'export const pick: (xs: number[]) => number = (xs) => xs[0] ?? 0;\n'],
      ['analysis/types-only.ts', 'export interface A {\n  f(): void;\n}\nexport type B = () => void;\nexport const LIMIT = 5;\n'],
      ['analysis/nested-only.ts', '/** function in a comment */\nexport const TABLE = {\n  f: () => 1,\n};\n'],
      ['security/async.ts', 'export default async function main() {}\n'],
    ]);
    const tests = new Set(['test/proxy/tested.test.ts']);
    assert.deepEqual(
      missingMirrors(modules, (t) => tests.has(t)),
      ['proxy/arrow.ts', 'proxy/untested.ts', 'security/async.ts'],
    );
    assert.equal(mirrorOf('engine/session/run-recorder.ts'), 'test/engine/session/run-recorder.test.ts');
  });

  it('every module with logic has its mirrored test, or is on the to-do list with why', () => {
    const missing = missingMirrors(repoModules(), (t) => existsSync(path.join(REPO, t)));
    assert.deepEqual(
      missing.filter((m) => !(m in ALLOWED)),
      [],
      'write test/<path below electron/>.test.ts for these modules (or, if a unit test cannot stand alone, add them to ALLOWED with why)',
    );
  });

  it('every to-do entry still names a module with logic and no mirror', () => {
    const missing = new Set(missingMirrors(repoModules(), (t) => existsSync(path.join(REPO, t))));
    assert.deepEqual(
      Object.keys(ALLOWED).filter((m) => !missing.has(m)),
      [],
      'these modules now have a mirrored test (or no logic, or no file): drop them from ALLOWED',
    );
  });
});
