/** Output file names: Windows traps refused (path.win32 rules, on any OS), one file per flag, the path shown as typed. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkOutputFiles, sameFile, windowsNameProblem } from '../../electron/util/output-paths.js';
import { ArgumentError } from '../../electron/util/errors.js';

const WIN = { platform: 'win32' as const, cwd: 'C:\\Users\\Test User\\Desktop' };
const LINUX = { platform: 'linux' as const, cwd: '/home/tu' };

describe('output paths', () => {
  it('accepts ordinary Windows paths: spaces, drive letters, UNC, forward slashes, relative, bare devices', () => {
    for (const p of [
      'C:\\Users\\Test User\\My Results\\result.json',
      'C:/Users/Test User/My Results/r 1.csv',
      'D:r.log',
      '\\\\nas\\bench share\\Longhaul Results\\run.csv',
      'r.csv',
      '..\\up one\\r.json',
      '.\\résultats\\débit.csv',
      'NUL',
      'C:\\temp\\nul',
      '\\\\?\\C:\\literal\\name.',
      'result-2026-01-01T10-42-00Z.json',
    ])
      assert.equal(windowsNameProblem(p), null, p);
  });

  it('refuses names Windows would turn into something else, and says why', () => {
    const cases: [string, RegExp][] = [
      ['C:\\Users\\Test User\\My Results" --csv x.csv', /backslash right before a closing quote/],
      ['run 10:42.json', /colon after the drive: .*alternate data stream/],
      ['C:\\Results\\a:b.csv', /colon after the drive/],
      ['C:\\Results\\a|b.csv', /"\|", which Windows does not allow/],
      ['what?.json', /"\?"/],
      ['tab\there.csv', /a control character \(code 9\)/],
      ['aux.csv', /"aux\.csv" is the device AUX/],
      ['C:\\logs\\COM1.log', /device COM1/],
      ['results.', /ends with a dot or a space/],
      ['C:\\My Results \\r.json', /"My Results " ends with a dot or a space/],
    ];
    for (const [p, why] of cases) assert.match(windowsNameProblem(p) ?? 'accepted', why, p);
  });

  it('same file: on Windows case and slashes do not matter; on Linux case does', () => {
    assert.ok(sameFile('r.csv', '.\\R.CSV', WIN));
    assert.ok(sameFile('C:\\Users\\Test User\\Desktop\\r.csv', 'c:/users/test user/desktop/R.csv', WIN));
    assert.ok(!sameFile('r.csv', 'r.log', WIN));
    assert.ok(sameFile('r.csv', './r.csv', LINUX));
    assert.ok(!sameFile('r.csv', 'R.csv', LINUX));
  });

  it('checkOutputFiles names the flag and the path as typed (exit 2 via ArgumentError)', () => {
    const refused = (files: Parameters<typeof checkOutputFiles>[0], host: typeof WIN | typeof LINUX): ArgumentError => {
      try {
        checkOutputFiles(files, host);
      } catch (err) {
        assert.ok(err instanceof ArgumentError);
        return err;
      }
      assert.fail('accepted');
    };
    const colon = refused([{ flag: '--json', path: 'C:\\My Results\\run 10:42.json' }], WIN);
    assert.equal(colon.flag, '--json');
    assert.match(colon.message, /^--json C:\\My Results\\run 10:42\.json: it has a colon/);
    const twice = refused(
      [
        { flag: '--json', path: 'My Run.csv' },
        { flag: '--log', path: undefined },
        { flag: '--csv', path: 'my run.CSV' },
      ],
      WIN,
    );
    assert.equal(twice.message, '--json and --csv name the same file (My Run.csv and my run.CSV); give each its own');
    assert.match(refused([{ flag: '--out', path: '' }], LINUX).message, /--out needs a file name/);
    // On Linux a colon is a character like any other, and case makes two files.
    checkOutputFiles(
      [
        { flag: '--json', path: 'run 10:42.json' },
        { flag: '--csv', path: 'RUN 10:42.json' },
      ],
      LINUX,
    );
    checkOutputFiles(
      [
        { flag: '--json', path: 'C:\\Users\\Test User\\My Results\\result.json' },
        { flag: '--csv', path: undefined },
      ],
      WIN,
    );
  });
});
