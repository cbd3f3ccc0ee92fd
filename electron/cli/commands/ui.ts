/** `longhaul ui`: the app in a browser, served on 127.0.0.1 (browser mode). */
import { InvalidArgumentError, type Command } from 'commander';
import { resultsDir, trustDir } from '../../util/app-paths.js';
import { askRunningUi } from '../../ui-server/link-door.js';
import { createInterface } from 'node:readline';
import { startUiServer, type UiServer } from '../../ui-server/server.js';
import { describeError } from '../../util/errors.js';
import { EXIT_RUN_FAILED } from '../exit-codes.js';
import { onStop } from '../stop-signals.js';
import { addExamples } from '../help-layout.js';

interface UiFlags {
  port: number;
  open: boolean;
  link?: boolean;
}

function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError(`"${v}" is not a port number (0-65535)`);
  return Number(v);
}

/**
 * Another browser's link, without a restart: Enter on this terminal prints one, and a parent process (a test,
 * a launcher) gets one for the message `{ type: 'new-link' }`. Returns the function that stops listening.
 */
function askForLinks(server: UiServer): () => void {
  const onLine = (): void => void process.stdout.write(`Link for another browser (once): ${server.newLink()}\n`);
  const onMessage = (m: unknown): void => {
    if ((m as { type?: unknown } | null)?.type === 'new-link') process.send?.({ type: 'ui-link', url: server.newLink() });
  };
  const lines = process.stdin.isTTY ? createInterface({ input: process.stdin }) : null;
  lines?.on('line', onLine);
  process.on('message', onMessage);
  return () => {
    lines?.close();
    process.off('message', onMessage);
  };
}

export function register(program: Command): void {
  const cmd = program
    .command('ui')
    .description('open the app in a web browser (served on 127.0.0.1 only, guarded by a token in the URL)')
    .option('-p, --port <port>', 'local port for the page (0 = any free port)', port, 5212)
    .option('--no-open', 'only print the URL, do not open a browser')
    .option('--link', 'ask the longhaul ui already running (for this user; --port picks one of several) for a new link, for another browser');
  addExamples(cmd, ['longhaul ui', 'longhaul ui --no-open -p 8080', 'longhaul ui --link']);
  cmd.action(async (flags: UiFlags) => {
    if (flags.link) {
      try {
        const port = cmd.getOptionValueSource('port') === 'cli' ? flags.port : null;
        process.stdout.write(`Link for another browser (once): ${await askRunningUi(trustDir(), port)}\n`);
      } catch (err) {
        process.stderr.write(`longhaul: ${describeError(err).message}\n`);
        process.exitCode = EXIT_RUN_FAILED;
      }
      return;
    }
    let server;
    try {
      server = await startUiServer({ port: flags.port, dataDir: resultsDir(), linkDoorDir: trustDir() });
    } catch (err) {
      process.stderr.write(`longhaul: cannot serve the UI on 127.0.0.1:${flags.port}: ${describeError(err).message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
      return;
    }
    process.stdout.write(`Longhaul UI: ${server.url}\n`);
    process.stdout.write(`Results are stored in ${server.backend.history.dir}\n`);
    process.stdout.write('Each link lets one browser in (its tabs, and the link opened again, go straight in).\n');
    const ask = `longhaul ui --link${flags.port === 5212 ? '' : ` --port ${server.port}`}`;
    process.stdout.write(`${process.stdin.isTTY ? 'Press Enter here, or run' : 'Run'} \`${ask}\` for a link for another browser; Ctrl-C to stop.\n`);
    process.send?.({ type: 'ui', url: server.url, port: server.port });
    const stopAsking = askForLinks(server);
    if (flags.open) {
      const { default: open } = await import('open');
      await open(server.url).catch((err: unknown) =>
        process.stderr.write(`longhaul: could not open a browser (${describeError(err).message}); open the URL above yourself\n`),
      );
    }
    // Ctrl-C, Ctrl-Break, a closed console window, SIGTERM (or, started by another process, its exit):
    // closing saves a run in progress as a partial result.
    let stopListening = (): void => {};
    await new Promise<void>((resolve) => {
      stopListening = onStop(resolve);
    });
    stopListening();
    stopAsking();
    await server.close();
  });
}
