// Loaded into each test file's process by scripts/test.mjs (with --import, which
// Node's test runner passes on to the processes of the files it runs): at that
// process's exit, appends to the file PIS_TEST_CPU names a line of JSON with
// the test file, when it began and ended, and the CPU seconds it used, its own and every process it
// waited for (a `run`, and the Playwright runner, workers and references under
// it: /proc counts a reaped child's CPU in its parent's). scripts/test.mjs ends
// with the files that used the most: where the command's time goes.
import { appendFileSync, readFileSync } from 'node:fs';

const out = process.env.PIS_TEST_CPU;
// A test file's process has the file as its script (not scripts/run-files.mjs, which names them all as arguments); a
// process that test files share (scripts/test.mjs) has its entry, *.shared.mjs.
const file = /\.(test\.ts|shared\.mjs)$/.test(process.argv[1] ?? '') ? process.argv[1] : undefined;
if (out && file) {
  process.on('exit', () => {
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      // The fields after the command's name in parentheses: utime, stime, cutime and cstime are the 12th to the 15th.
      const [utime, stime, cutime, cstime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
      // Clock ticks of 1/100 s, as on every Linux build this runs on (getconf CLK_TCK).
      // When the process began and ended (epoch ms): scripts/test.mjs names the files that took longest.
      appendFileSync(out, JSON.stringify({ file, cpuS: (utime + stime + cutime + cstime) / 100, startMs: performance.timeOrigin, endMs: Date.now() }) + '\n');
    } catch { /* no /proc: no figure */ }
  });
}
