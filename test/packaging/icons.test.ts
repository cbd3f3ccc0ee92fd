/** Icons from build/icon.svg: real PNG, ICO and ICNS files, checked by their headers. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Resvg } from '@resvg/resvg-js';
import { LINUX_SIZES, makeIcons } from '../../scripts/packaging/make-icons.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(buf: Buffer): { width: number; height: number } {
  assert.ok(buf.subarray(0, 8).equals(PNG_MAGIC), 'PNG signature');
  assert.equal(buf.toString('latin1', 12, 16), 'IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('icons', { timeout: 60_000 }, () => {
  it('renders every size and writes a valid ICO and ICNS', (t) => {
    const out = tmpDir(t);
    const written = makeIcons(path.join(REPO, 'build', 'icon.svg'), out);
    assert.equal(written.length, 3 + LINUX_SIZES.length);
    assert.deepEqual(pngSize(readFileSync(path.join(out, 'icon.png'))), { width: 1024, height: 1024 });
    for (const s of LINUX_SIZES) assert.deepEqual(pngSize(readFileSync(path.join(out, 'icons', `${s}x${s}.png`))), { width: s, height: s });

    const ico = readFileSync(path.join(out, 'icon.ico'));
    assert.equal(ico.readUInt16LE(0), 0, 'ICO reserved');
    assert.equal(ico.readUInt16LE(2), 1, 'ICO type icon');
    const count = ico.readUInt16LE(4);
    const widths = Array.from({ length: count }, (_, i) => ico[6 + 16 * i] || 256);
    for (const w of [16, 32, 48, 256]) assert.ok(widths.includes(w), `ICO has ${w}px (has ${widths.join(',')})`);

    const icns = readFileSync(path.join(out, 'icon.icns'));
    assert.equal(icns.toString('latin1', 0, 4), 'icns');
    assert.equal(icns.readUInt32BE(4), icns.length, 'ICNS length field');
    // A 1024 px entry (ic10) for Retina 512@2x, as macOS's Finder uses.
    assert.ok(icns.includes(Buffer.from('ic10')), 'ICNS has a 1024 px entry');
  });

  it('draws the icon: opaque inside the rounded square, transparent in the corner', () => {
    const img = new Resvg(readFileSync(path.join(REPO, 'build', 'icon.svg')), { fitTo: { mode: 'width', value: 64 } }).render();
    const alpha = (x: number, y: number): number => img.pixels[(y * img.width + x) * 4 + 3]!;
    assert.equal(img.width, 64);
    assert.equal(alpha(1, 1), 0, 'corner outside the rounded square');
    assert.equal(alpha(32, 20), 255, 'inside the square');
  });
});
