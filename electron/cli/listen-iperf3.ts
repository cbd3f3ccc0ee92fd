/**
 * `longhaul listen --iperf3`: serve `iperf3 -c` clients (engine/iperf3/iperf3-server.ts). No
 * pairing and no DNS-SD: an iperf3 client knows neither. A line per test says what came
 * in; each result is saved to the History folder (served-history.ts, as the app saves its
 * runs; not with --no-record) and the line says where, and it also goes to a parent process over IPC (tests).
 */
import os from 'node:os';
import { Iperf3Server } from '../engine/iperf3/iperf3-server.js';
import type { ServerLimits } from '../protocol/iperf3/params-document.js';
import { describeError } from '../util/errors.js';
import { formatJitter, formatLostTotal, formatRate, groupDigits } from '../contract/units.js';
import { rateText } from '../contract/partial-text.js';
import type { LonghaulResult } from '../contract/result.js';
import { EXIT_OK, EXIT_RUN_FAILED } from './exit-codes.js';
import { onStop } from './stop-signals.js';
import { TurnedAwayLog } from './turned-away-log.js';
import { ServedHistory } from './served-history.js';

interface ListenIperf3Options {
  port: number;
  bind?: string;
  once?: boolean;
  workers?: number;
  limits: Partial<ServerLimits>;
  /** false with --no-record: served tests are not saved to History. */
  record: boolean;
}

export async function listenIperf3(o: ListenIperf3Options): Promise<void> {
  const server = new Iperf3Server({ port: o.port, host: o.bind, limits: o.limits, maxWorkersPerRole: o.workers });
  let addr;
  try {
    addr = await server.listen();
  } catch (err) {
    process.stderr.write(`longhaul: cannot listen on port ${o.port}: ${describeError(err).message}\n`);
    process.exitCode = EXIT_RUN_FAILED;
    return;
  }
  process.stdout.write(`Longhaul as an iperf3 server on ${os.hostname()}, listening on ${addr.address}:${addr.port} (TCP and UDP tests, one at a time)\n`);
  process.stdout.write(`On the other PC: iperf3 -c <this PC's address> -p ${addr.port} [-u -b RATE] [-P N] [-R | --bidir] [-t S | -n BYTES]\n`);
  process.send?.({ type: 'listening', port: addr.port, address: addr.address });
  const turnedAway = new TurnedAwayLog({ write: (line) => process.stdout.write(`${line}\n`) });
  server.on('rejected', (peer, why) => turnedAway.note(peer, why));
  server.on('session', (s) => process.stdout.write(`iperf3 client connected from ${s.remoteAddress}\n`));
  // Saves in order, and the process waits for the last before it exits.
  const history = new ServedHistory(o.record, 'test');
  let stopListening = (): void => {};
  await new Promise<void>((resolve) => {
    stopListening = onStop(resolve);
    server.on('session-end', (result, err) => {
      if (result) {
        process.stdout.write(`test ${result.id} with ${result.controller.software} ${result.partial ? 'ended early' : 'complete'}: ${servedFigures(result)}\n`);
        history.save(result, (savedPath) => process.send?.({ type: 'result', result, savedPath }));
      }
      if (err) process.stdout.write(`test ended: ${err.code}: ${err.message}\n`);
      if (o.once) {
        process.exitCode = err || result?.partial || !result ? EXIT_RUN_FAILED : EXIT_OK;
        void history.settled().then(() => resolve());
      }
    });
  });
  stopListening();
  turnedAway.close();
  await server.close();
  await history.settled();
  if (history.anyFailed && o.once) process.exitCode = EXIT_RUN_FAILED;
}

/** What a served test moved, from this server's side: bytes received (sent, for -R), the rate, and UDP's loss and jitter. */
function servedFigures(result: LonghaulResult): string {
  const t = result.total;
  const moved = { forward: 'received', reverse: 'sent', bidir: 'moved both ways' }[result.params.direction];
  const udp = t.udp
    ? `, ${formatLostTotal(t.udp.lost, t.udp.lost + t.udp.datagrams)} datagrams lost, jitter ${t.udp.jitterMs === null ? 'unknown' : formatJitter(t.udp.jitterMs / 1000)}`
    : '';
  return `${groupDigits(t.bytes)} bytes ${moved}, ${t.partialRate ? rateText(t) : `${formatRate(t.bitsPerSecond)} wall-clock aggregate`}${udp}`;
}
