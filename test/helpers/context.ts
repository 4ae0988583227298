// A run context like the one `run` gives Playwright (suites/support/context.ts), for tests that load the suites'
// code or Playwright without `run`: the target's open part as given, no fds, files under the temp folder.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirementWindows } from '../../harness/requirements/versions.ts';
import { encodeRunContext, type RunContext } from '../../suites/support/context.ts';

export function testContext(target: Record<string, unknown>, selected: string[] = []): RunContext {
  return {
    runPid: 0, scratchDir: join(tmpdir(), 'pis-test-context'), guardFd: 3, requirementWindows: [...requirementWindows()],
    runs: [{
      name: '', target, selected, files: [],
      report: { reportDir: join(tmpdir(), 'pis-test-context'), header: { command: 'run', target: {}, timeScale: 1 },
        statusFile: join(tmpdir(), 'pis-test-context', 'status.json'), stdout: 'line', secretVariables: [] },
    }],
    playwright: { workers: 1, maxWaitS: 60, globalTimeoutS: 0, outputDir: join(tmpdir(), 'pis-test-context', 'output') },
  };
}

/** The environment that carries testContext(target). */
export const testContextEnv = (target: Record<string, unknown>): Record<string, string> => encodeRunContext(testContext(target));
