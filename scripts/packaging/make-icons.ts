/**
 * Every icon the installers need, from one source: build/icon.svg.
 *   build/icon.png          1024×1024 (electron-builder's fallback, macOS source)
 *   build/icons/NxN.png     16…512 (Linux: AppImage, .deb)
 *   build/icon.ico          Windows (exe, installer, shortcuts), sizes up to 256
 *   build/icon.icns         macOS
 * Pure JS and a prebuilt renderer from npm (@resvg/resvg-js, png2icons): no
 * ImageMagick, no download. Usage: node dist/scripts/packaging/make-icons.js [OUT_DIR]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import png2icons from 'png2icons';

/** Square sizes rendered for Linux (hicolor theme sizes). */
export const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512] as const;

/** Renders the SVG to a square PNG of `sizePx`. */
function renderPng(svg: Buffer, sizePx: number): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: sizePx }, background: 'rgba(0,0,0,0)' }).render().asPng();
}

/** Writes every icon into `outDir` (normally build/); returns the files written, relative to it. */
export function makeIcons(svgFile: string, outDir: string): string[] {
  const svg = readFileSync(svgFile);
  const written: string[] = [];
  const put = (name: string, data: Buffer | null): void => {
    if (!data) throw new Error(`icon generation produced nothing for ${name}`);
    writeFileSync(path.join(outDir, name), data);
    written.push(name);
  };
  mkdirSync(path.join(outDir, 'icons'), { recursive: true });
  const master = renderPng(svg, 1024);
  put('icon.png', master);
  for (const size of LINUX_SIZES) put(`icons/${size}x${size}.png`, renderPng(svg, size));
  // ICO for a Windows executable: BMP entries up to 128, PNG for 256 (what rcedit and Explorer expect).
  put('icon.ico', png2icons.createICO(master, png2icons.BICUBIC2, 0, false, true));
  put('icon.icns', png2icons.createICNS(master, png2icons.BICUBIC2, 0));
  return written;
}

function main(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'build');
  const files = makeIcons(path.join(root, 'build', 'icon.svg'), outDir);
  console.log(`longhaul: ${files.length} icon files written to ${outDir}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
