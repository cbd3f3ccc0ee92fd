/**
 * Tells a failed download apart from every other packaging error, and says in
 * plain words what could not be fetched. electron-builder downloads, at
 * packaging time and only then, Electron's prebuilt runtime for each target and
 * the tools of each installer format (NSIS, AppImage runtime, …). On a machine
 * without access to those hosts that is where `npm run dist` has to stop.
 */

/** What a failed download was for, from the URL or file name in the error. */
type Artifact = 'electron' | 'nsis' | 'appimage' | 'winCodeSign' | 'other';

/** A classified download failure. */
interface DownloadFailure {
  artifact: Artifact;
  url: string | null;
  reason: string;
}

const NETWORK_CODES = [
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EPROTO',
  'CERT_',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT',
];
const HTTP_STATUS = /\b(?:HTTPError|Response code|status(?: code)?)[^0-9]{0,20}([45]\d\d)\b/i;
const URL_RE = /https?:\/\/[^\s'")]+/;

function textOf(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const cause = err.cause ? `\n${textOf(err.cause)}` : '';
    // got (used by @electron/get) keeps the URL it was fetching on the error's options.
    const url = (err as { options?: { url?: unknown } }).options?.url;
    return `${url ? `${String(url)} ` : ''}${code} ${err.message}\n${err.stack ?? ''}${cause}`;
  }
  return String(err);
}

function artifactOf(text: string): Artifact {
  if (/electron-v\d[^\s/]*\.zip|\/electron\/releases|ELECTRON_MIRROR|electron\/electron/i.test(text)) return 'electron';
  if (/nsis/i.test(text)) return 'nsis';
  if (/appimage/i.test(text)) return 'appimage';
  if (/winCodeSign/i.test(text)) return 'winCodeSign';
  return 'other';
}

/** Null when `err` is not a failed download (a bad config, a build error: reported as they are). */
export function classifyDownloadFailure(err: unknown): DownloadFailure | null {
  const text = textOf(err);
  const code = NETWORK_CODES.find((c) => text.includes(c));
  const status = HTTP_STATUS.exec(text)?.[1];
  const looksLikeDownload = /download|GotError|RequestError|got\b|fetch failed|socket hang up/i.test(text);
  if (!code && !(status && looksLikeDownload) && !/fetch failed|socket hang up/.test(text)) return null;
  const reason = code ? `the connection failed (${code})` : status ? `the server answered HTTP ${status}` : 'the connection failed';
  return { artifact: artifactOf(text), url: URL_RE.exec(text)?.[0] ?? null, reason };
}

const WHAT: Record<Artifact, string> = {
  electron: "Electron's prebuilt runtime (the app's executable, one zip per platform and arch, from Electron's GitHub releases)",
  nsis: 'NSIS, the Windows installer compiler (from electron-builder-binaries on GitHub)',
  appimage: 'the AppImage runtime and tools (from electron-builder-binaries on GitHub)',
  winCodeSign: 'the Windows resource and signing tools (from electron-builder-binaries on GitHub)',
  other: 'a packaging tool electron-builder fetches at packaging time',
};

/** The message `npm run dist` prints when it stops at the download step. */
export function downloadFailureMessage(f: DownloadFailure, doneSteps: string[]): string {
  return [
    `longhaul dist: packaging stopped at the download step: ${WHAT[f.artifact]} cannot be downloaded on this machine (${f.reason}${f.url ? `, ${f.url}` : ''}).`,
    '',
    'electron-builder downloads Electron and the installer tools (NSIS, AppImage) when it packages; this machine',
    'cannot reach the hosts they come from, so installers cannot be built here.',
    '',
    'Everything before that step succeeded:',
    ...doneSteps.map((s) => `  ✓ ${s}`),
    '',
    'To get installers: push a tag and let .github/workflows/release.yml build them (Windows, macOS, Linux),',
    'or run `npm run dist` on a machine with internet access. Where a mirror is available, ELECTRON_MIRROR and',
    'ELECTRON_BUILDER_BINARIES_MIRROR point electron-builder at it (see README "Build from source").',
  ].join('\n');
}
