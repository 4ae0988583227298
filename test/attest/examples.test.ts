// The certificate and baseline gates of the CI examples (examples/), their
// commands as written, run by bash against the bundled reference with the
// fault token-type-mac, with a `pis-conformance` of this checkout on PATH:
// GitHub's signing step signs and verifies (and refuses the FAILED
// certificate once the repository has a policy), its baseline job passes the
// known failure; GitLab's after_script signs, its verify and baseline jobs pass.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startReference } from '../../harness/reference/index.ts';
import { ROOT, runCli, sh } from '../helpers/cli.ts';
import { statementOf } from './independent.ts';

interface Step { name?: string; run?: string; if?: string }
const github = parse(readFileSync(join(ROOT, 'examples/github-actions/conformance.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const gitlab = parse(readFileSync(join(ROOT, 'examples/gitlab-ci/conformance.gitlab-ci.yml'), 'utf8')) as Record<string, {
  script: string[]; after_script?: string[] }>;
const tmp = mkdtempSync(join(tmpdir(), 'pis-examples-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const stepOf = (job: string, name: RegExp) => github.jobs[job]!.steps.find(s => name.test(s.name ?? ''))!.run!;
const runLine = (script: string[]) => script.find(l => l.startsWith('pis-conformance run'))!;

test('the CI examples sign, verify and gate on a baseline as written', async () => {
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  const cli = `'${process.execPath}' --import '${import.meta.resolve('tsx')}' '${join(ROOT, 'harness/cli.ts')}'`;
  writeFileSync(join(bin, 'pis-conformance'), `#!/bin/sh\nexec ${cli} "$@"\n`);
  chmodSync(join(bin, 'pis-conformance'), 0o755);
  const scale = 0.01;
  // Refresh tokens live 400 spec s (4 real s): a refresh chain's exchanges outlived 2 s at load 10 in another test's run.
  const ref = await startReference({ timeScale: scale, faults: ['token-type-mac'], lifetimes: { accessS: 100, refreshS: 400, consentS: 200 } });
  try {
    const work = (name: string) => {
      const dir = join(tmp, name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'conformance.yaml'), `suites: token\ntimeScale: ${scale}\nmaxWait: 30\n`);
      return dir;
    };
    const gh = work('github'), gl = work('gitlab');
    assert.equal((await runCli(['keygen', '--out', join(tmp, 'ci')])).code, 0);
    for (const d of [gh, gl]) copyFileSync(join(tmp, 'ci.pub'), join(d, 'conformance-attest.pub'));
    const env = { PATH: `${bin}:${process.env.PATH}`, PIS_AUTH_URL: ref.authUrl, PIS_CLIENT_ID: ref.clientId, PIS_BASE_URL: ref.baseUrl,
      PIS_CONTROL_URL: ref.controlUrl, PIS_CLIENT_SECRET: ref.clientSecret, PIS_WEBHOOK_API_KEY: 'gate-key-1234' };

    // GitHub: the gate fails on the fault; the signing step signs the report and verifies it.
    const ghEnv = { ...env, GITHUB_STEP_SUMMARY: join(gh, 'summary.md'), RUNNER_TEMP: mkdtempSync(join(tmp, 'runner-')),
      GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'acme/pis', GITHUB_RUN_ID: '7', PIS_ATTEST_KEY: readFileSync(join(tmp, 'ci.key'), 'utf8') };
    assert.equal((await sh(stepOf('conformance', /^Conformance run$/), gh, ghEnv)).code, 1);
    const sign = await sh(stepOf('conformance', /^Sign/), gh, ghEnv);
    assert.equal(sign.code, 0, sign.stdout + sign.stderr);
    assert.match(sign.stdout, /^Verified: .*FAILED \(Not conformant\); checked the files of conformance-report\.$/m);
    const s = statementOf(readFileSync(join(gh, 'conformance-report', 'attestation.intoto.json'), 'utf8'));
    assert.equal(s.predicate.url, 'https://github.example/acme/pis/actions/runs/7');
    assert.ok((s.predicate.configuration as { name: string }[]).some(d => d.name === 'target-description'));
    writeFileSync(join(gh, 'conformance-policy.yaml'), '{}\n');
    const refused = await sh(stepOf('conformance', /^Sign/), gh, ghEnv);
    assert.equal(refused.code, 1, 'a policy refuses the FAILED certificate and fails the step');
    assert.match(refused.stdout, /^token\.issue\.token-type failed\.$/m);
    // The baseline job: the same failure, known, passes.
    copyFileSync(join(gh, 'conformance-report', 'results.json'), join(gh, 'conformance-baseline.json'));
    const known = await sh(stepOf('known-failures', /baseline/), gh, ghEnv);
    assert.equal(known.code, 0, known.stdout + known.stderr);
    assert.match(known.stdout, /^Baseline: no new failure\.$/m);

    // GitLab: after_script signs whatever the verdict; the verify and baseline jobs pass.
    const glEnv = { ...env, PIS_ATTEST_KEY_FILE: join(tmp, 'ci.key'), CI_JOB_URL: 'https://gitlab.example/acme/pis/-/jobs/9' };
    assert.equal((await sh(runLine(gitlab['pis-conformance']!.script), gl, glEnv)).code, 1);
    assert.equal((await sh(gitlab['pis-conformance']!.after_script![0]!, gl, glEnv)).code, 0);
    const verify = await sh(gitlab['pis-conformance-verify']!.script.find(l => l.startsWith('pis-conformance verify'))!, gl, glEnv);
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    copyFileSync(join(gl, 'conformance-report', 'results.json'), join(gl, 'conformance-baseline.json'));
    const glKnown = await sh(runLine(gitlab['pis-conformance-known-failures']!.script), gl, glEnv);
    assert.equal(glKnown.code, 0, glKnown.stdout + glKnown.stderr);
  } finally { await ref.close(); }
});
