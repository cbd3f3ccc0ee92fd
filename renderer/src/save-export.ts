/**
 * Export a stored result or sweep through the host: the OS save dialog in
 * the desktop app, a download in browser mode. Returns what to tell the user.
 */
import type { ExportFormat, ExportOutcome, LonghaulApi } from '../../electron/contract/api.js';
import type { GroupExportFormat } from '../../electron/contract/group-app.js';

export async function saveExport(api: LonghaulApi, id: string, format: ExportFormat): Promise<string | null> {
  return deliverExport(await api.exportResult({ id, format }));
}

/** The same for a group run (`longhaul.group/1`, its CSV, its console log). */
export async function saveGroupExport(api: LonghaulApi, id: string, format: GroupExportFormat): Promise<string | null> {
  return deliverExport(await api.exportGroup({ id, format }));
}

/** Finish an export the host prepared: start the download in browser mode; say what happened. */
export function deliverExport(out: ExportOutcome): string | null {
  if (out.kind === 'download') {
    const url = URL.createObjectURL(new Blob([out.text], { type: out.mimeType }));
    const a = document.createElement('a');
    a.href = url;
    a.download = out.fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    return `Downloaded ${out.fileName}`;
  }
  return out.kind === 'saved' ? `Saved ${out.path}` : null;
}
