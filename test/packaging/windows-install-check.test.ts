/**
 * The parts of scripts/packaging/windows-install-check.ts that run anywhere:
 * reading `reg query` output (this sample is Wine's reg.exe, whose layout is
 * Windows'), finding Longhaul's uninstall entry among others, and splitting the
 * QuietUninstallString electron-builder writes. The install itself runs on
 * windows-latest in release.yml.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findUninstallEntry, parseRegQuery, splitCommand } from '../../scripts/packaging/windows-install-check.js';

const ROOT = 'HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall';
const SAMPLE = [
  '',
  `${ROOT}\\{0A1B}`,
  '    DisplayName    REG_SZ    Longhaulish Tools 2.0',
  '',
  `${ROOT}\\7e755290-1794-578b-a347-26469900157b`,
  '    DisplayName    REG_SZ    Longhaul 0.1.0',
  '    EstimatedSize    REG_DWORD    0x2b13',
  '    QuietUninstallString    REG_SZ    "C:\\users\\root\\AppData\\Local\\Programs\\Longhaul\\Uninstall Longhaul.exe" /currentuser /S',
  '    (Default)    REG_SZ',
  '',
].join('\r\n');

describe('windows-install-check helpers', () => {
  it("reads reg query output and finds Longhaul's entry, not a look-alike", () => {
    const keys = parseRegQuery(SAMPLE);
    assert.equal(keys.size, 2);
    const entry = findUninstallEntry(keys, 'Longhaul');
    assert.ok(entry);
    assert.equal(entry.key, `${ROOT}\\7e755290-1794-578b-a347-26469900157b`);
    assert.equal(entry.values.DisplayName, 'Longhaul 0.1.0');
    assert.equal(entry.values.EstimatedSize, '0x2b13');
    assert.equal(entry.values['(Default)'], '');
    assert.equal(findUninstallEntry(parseRegQuery(SAMPLE.replace('Longhaul 0.1.0', 'Other 1')), 'Longhaul'), null);
  });

  it('splits the QuietUninstallString into the uninstaller and its arguments', () => {
    const entry = findUninstallEntry(parseRegQuery(SAMPLE), 'Longhaul')!;
    assert.deepEqual(splitCommand(entry.values.QuietUninstallString!), {
      exe: 'C:\\users\\root\\AppData\\Local\\Programs\\Longhaul\\Uninstall Longhaul.exe',
      args: ['/currentuser', '/S'],
    });
    assert.equal(splitCommand('Uninstall.exe /S'), null);
  });
});
