// Runs `pis-conformance run` against the bundled reference with faults or
// quirks and reads the report it wrote: what the fault and quirk tests share.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { startReference, type Reference } from '../../harness/reference/index.ts';
import { bundledLifetimes } from '../../harness/runner/bundled.ts';
import { runServedHere, type CliResult } from '../helpers/cli.ts';
import type { ApiVersion } from '../../harness/contracts/api-versions.ts';
import { againWhileShort, shortForLoad } from '../sink/stall.ts';

/**
 * The suites that do not need the webhook sink, at a time scale where a token
 * lifetime (3600 spec s) is 3.6 real seconds, so token.expiry really waits it
 * out. A consent then lasts 3.6 s too; the suites renew it when asked.
 */
export const SUITES = 'token,session,data,payments';
export const TIME_SCALE = '0.001';

export interface Run { cli: CliResult; results?: RunResults; dir: string }

async function runInto(args: string[], env?: Record<string, string>, suites = SUITES): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'pis-run-'));
  // Minutes: on a machine shared with other test runs (load above 40) a run of the four suites was seen taking over 2 minutes.
  // One worker: the four suites take 5.7 CPU s with one worker, 6.6 with two (12.9 s wall against 8.8 on a quiet machine),
  // and npm test runs these beside other files on two cores, where CPU, not waiting, sets the pace. A run of one suite
  // starts one worker either way.
  // The bundled reference or one this process serves: a pre-flight stall is this machine's (runServedHere).
  const cli = await runServedHere(['run', '--suites', suites, '--time-scale', TIME_SCALE, '--workers', '1', '--report', dir, ...args],
    { env, timeoutMs: 600_000 });
  let results: RunResults | undefined;
  try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { /* asserted by the caller */ }
  return { cli, results, dir };
}

/** The bundled reference with the named faults or quirks (`run --fault`), the suites given (default all four). */
export function runReference(names: string[], extra: string[] = [], suites = SUITES): Promise<Run> {
  return runInto([...(names.length ? ['--fault', names.join(',')] : []), ...extra], undefined, suites);
}

/**
 * The suites against a reference this process started, so the test can ask it
 * afterwards what it saw. It is told what `run` tells the bundled reference:
 * how long a consent lasts.
 */
export function runTarget(ref: Reference, suites = SUITES, extra: string[] = []): Promise<Run> {
  return runInto(['--auth-url', ref.authUrl, '--realm', ref.realm, '--client-id', ref.clientId, '--base-url', ref.baseUrl,
    '--session-lifetime', String(ref.lifetimes.consentS), ...extra], { PIS_CLIENT_SECRET: ref.clientSecret }, suites);
}

/** A reference like the one `run` bundles at TIME_SCALE (same lifetimes), for runTarget; at the latest API version unless told. */
export function startLikeBundled(apiVersion?: ApiVersion): Promise<Reference> {
  return startReference({ timeScale: Number(TIME_SCALE), lifetimes: bundledLifetimes(Number(TIME_SCALE)), ...(apiVersion ? { apiVersion } : {}) });
}

export function cleanup(run: Run): void {
  rmSync(run.dir, { recursive: true, force: true });
}

export function failed(r: RunResults | undefined): { id: string; level: string; message?: string }[] {
  return (r?.checks ?? []).filter(c => c.status === 'failed').map(c => ({ id: c.id, level: c.level, message: c.message }));
}

/**
 * A run that should end Conformant but is short of it only by checks it left not run for the machine's load (a
 * consent or token that ran out under its own calls at this time scale: clean-clone CI runs at load 10) is made
 * again by `again`, up to twice, each run's shortfall told to `note`. The last run, and when it is still short so,
 * the reason the test skips its verdict with (the run is cleaned up then).
 */
export function againForLoad(first: Run, again: () => Promise<Run>, note: (s: string) => void): Promise<{ run: Run; busy?: string }> {
  return againWhileShort(first, again, r => (r.cli.code !== 0 && r.results ? shortForLoad(r.results.checks) : undefined), note, cleanup);
}
