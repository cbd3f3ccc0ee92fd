// A reporter for Node's test runner: how long each test file's tests took, one JSON line per file
// at the end. scripts/run-tests.js prints the slowest ten from it, so CI's log shows where its
// minutes go (docs/contributing.md "CI's time"). A file's time is the sum of its top-level tests'
// and suites' durations: it leaves out the process start and the imports (about 0.1-0.5 s a file).
export default async function* fileTimes(source) {
  const byFile = new Map();
  for await (const ev of source) {
    if (ev.type !== 'test:pass' && ev.type !== 'test:fail') continue;
    if (ev.data.nesting !== 0 || !ev.data.file) continue;
    const t = byFile.get(ev.data.file) ?? { ms: 0, tests: 0, failed: 0 };
    t.ms += ev.data.details?.duration_ms ?? 0;
    t.tests += 1;
    if (ev.type === 'test:fail') t.failed += 1;
    byFile.set(ev.data.file, t);
  }
  for (const [file, t] of byFile) yield JSON.stringify({ file, ...t }) + '\n';
}
