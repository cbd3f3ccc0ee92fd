/**
 * Debian's `prometheus` and `promtool` (scripts/setup-and-test.sh installs them) for the tests of
 * docs/prometheus/ and docs/grafana/: a Prometheus of the test's own, on a free loopback port,
 * stopped when the test ends (also when it fails).
 */
import { existsSync } from 'node:fs';

export const PROMTOOL = '/usr/bin/promtool';

/** Why a test that needs `bin` cannot run here, or false (the form node:test's `skip` takes). */
export function skipWithout(bin: string): string | false {
  return existsSync(bin) ? false : `${bin} is not installed (Debian: apt-get install prometheus; scripts/setup-and-test.sh installs it in CI)`;
}
