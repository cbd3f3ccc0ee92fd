/** Where Longhaul keeps results and trust, per OS: Windows answers asked on Linux through injected hosts. */
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { resultsDir as appResultsDir } from '../../electron/app/data-dir.js';
import { currentHost, envValue, resultsDir, trustDir, type HostPaths } from '../../electron/util/app-paths.js';

const PROFILE = 'C:\\Users\\Test User';
const LOCAL = `${PROFILE}\\AppData\\Local`;
const ROAMING = `${PROFILE}\\AppData\\Roaming`;

function windows(env: Record<string, string> = { LOCALAPPDATA: LOCAL, APPDATA: ROAMING, USERPROFILE: PROFILE }): HostPaths {
  return { platform: 'win32', env, homedir: PROFILE, cwd: `${PROFILE}\\Desktop` };
}

function linux(env: Record<string, string> = {}): HostPaths {
  return { platform: 'linux', env, homedir: '/home/test user', cwd: '/home/test user/work' };
}

describe('app paths', () => {
  it('Windows: results and trust under %LOCALAPPDATA%\\Longhaul, which does not roam', () => {
    assert.equal(resultsDir(windows()), `${LOCAL}\\Longhaul\\results`);
    assert.equal(trustDir(windows()), `${LOCAL}\\Longhaul\\trust`);
    assert.ok(!trustDir(windows()).startsWith(ROAMING), 'the private key never goes to the roaming profile');
  });

  it('Windows desktop app: results stay in Electron userData (%APPDATA%\\Longhaul); trust does not follow it there', () => {
    const userData = `${ROAMING}\\Longhaul`;
    assert.equal(resultsDir(windows(), userData), `${userData}\\results`);
    assert.equal(trustDir(windows()), `${LOCAL}\\Longhaul\\trust`);
  });

  it('Windows: variable names in any case; a missing or relative LOCALAPPDATA falls back to the profile', () => {
    assert.equal(trustDir(windows({ LocalAppData: 'D:\\Profiles\\tu\\Local' })), 'D:\\Profiles\\tu\\Local\\Longhaul\\trust');
    assert.equal(envValue(windows({ SystemRoot: 'C:\\WINDOWS' }), 'SYSTEMROOT'), 'C:\\WINDOWS');
    assert.equal(resultsDir(windows({})), `${LOCAL}\\Longhaul\\results`);
    assert.equal(resultsDir(windows({ LOCALAPPDATA: 'AppData\\Local' })), `${LOCAL}\\Longhaul\\results`);
    assert.equal(resultsDir(windows({ LOCALAPPDATA: '' })), `${LOCAL}\\Longhaul\\results`);
    assert.equal(trustDir(windows({ XDG_DATA_HOME: 'C:\\xdg' })), `${LOCAL}\\Longhaul\\trust`, 'XDG is not a Windows convention');
  });

  it('Windows: overrides win, a relative one from the current folder, with spaces and drive letters kept', () => {
    assert.equal(resultsDir(windows({ LONGHAUL_DATA_DIR: 'My Results' })), `${PROFILE}\\Desktop\\My Results`);
    assert.equal(resultsDir(windows({ LONGHAUL_DATA_DIR: 'D:/Bench Results/' }), `${ROAMING}\\Longhaul`), 'D:\\Bench Results');
    assert.equal(trustDir(windows({ longhaul_trust_dir: 'E:\\lh trust' })), 'E:\\lh trust');
  });

  it('Linux: XDG_DATA_HOME (if absolute), else ~/.local/share; the desktop app keeps userData for results', () => {
    assert.equal(resultsDir(linux()), '/home/test user/.local/share/longhaul/results');
    assert.equal(trustDir(linux()), '/home/test user/.local/share/longhaul/trust');
    assert.equal(trustDir(linux({ XDG_DATA_HOME: '/data/xdg' })), '/data/xdg/longhaul/trust');
    assert.equal(trustDir(linux({ XDG_DATA_HOME: 'relative' })), '/home/test user/.local/share/longhaul/trust');
    assert.equal(resultsDir(linux(), '/home/test user/.config/Longhaul'), '/home/test user/.config/Longhaul/results');
    assert.equal(resultsDir(linux({ LONGHAUL_DATA_DIR: 'out' })), '/home/test user/work/out');
    assert.equal(trustDir(linux({ longhaul_trust_dir: '/x' })), '/home/test user/.local/share/longhaul/trust', 'POSIX names are case-sensitive');
  });

  it('macOS keeps the folder it had (XDG-style under the home folder)', () => {
    assert.equal(trustDir({ ...linux(), platform: 'darwin', homedir: '/Users/tu' }), '/Users/tu/.local/share/longhaul/trust');
  });

  it('this process: the app wrapper and the rule agree', () => {
    assert.equal(appResultsDir(), resultsDir());
    assert.equal(appResultsDir({}, '/u'), '/u/results');
    assert.equal(appResultsDir({}), path.join(os.homedir(), '.local', 'share', 'longhaul', 'results'));
    assert.equal(currentHost().platform, process.platform);
  });
});
