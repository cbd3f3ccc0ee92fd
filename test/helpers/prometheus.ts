/**
 * Debian's `prometheus` and `promtool` (scripts/setup-and-test.sh installs them) for the tests of
 * docs/prometheus/ and docs/grafana/: a Prometheus of the test's own, on a free loopback port,
 * stopped when the test ends (also when it fails).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { childEnded } from './child-exit.js';
import { within } from './net.js';

export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

/** Why a test that needs `bin` cannot run here, or false (the form node:test's `skip` takes). */
export function skipWithout(bin: string): string | false {
  return existsSync(bin) ? false : `${bin} is not installed (Debian: apt-get install prometheus; scripts/setup-and-test.sh installs it in CI)`;
}

/** A Prometheus reading `configFile`, its data in `dir`, its API and UI at `listen` (host:port). */
export function prometheusArgs(configFile: string, dir: string, listen: string): string[] {
  return [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`, `--web.listen-address=${listen}`];
}

/** A TCP port free on 127.0.0.1 now (bound and released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A Prometheus with `config` (prometheus.yml's text) on a free loopback port, ready; its base URL. */
export async function startLocalPrometheus(t: TestContext, dir: string, config: string): Promise<string> {
  const configFile = path.join(dir, 'prometheus.yml');
  await writeFile(configFile, config);
  const listen = `127.0.0.1:${await freePort()}`;
  const child = spawn(PROMETHEUS, prometheusArgs(configFile, dir, listen), { stdio: ['ignore', 'ignore', 'pipe'] });
  const ended = childEnded(child);
  t.after(async () => {
    child.kill('SIGKILL');
    await ended;
  });
  let log = '';
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const url = `http://${listen}`;
  await within(
    (async () => {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${log}`);
        if (
          await fetch(`${url}/-/ready`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
    })(),
    30_000,
    `prometheus ready at ${url}\n${log}`,
  );
  return url;
}
