/**
 * Export a stored result through the host: the OS save dialog in the desktop
 * app, a download in browser mode. Returns what to tell the user.
 */
import type { ExportFormat, LonghaulApi } from '../../electron/contract/api.js';

export async function saveExport(api: LonghaulApi, id: string, format: ExportFormat): Promise<string | null> {
  const out = await api.exportResult({ id, format });
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
