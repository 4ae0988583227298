// The package as users install it and the CI examples as they run, outside a
// container (there is no Docker here): the Dockerfile's own npm commands pack
// the project and install the tarball into a temporary prefix (from the npm
// cache where it can); the binary then works from a folder outside the clone
// (--version, the image's default --help, validate, a run); and the commands
// of examples/github-actions and examples/gitlab-ci run against the bundled
// reference: Conformant passes the job, Not conformant and Incomplete fail it,
// and the report folder they upload is there. About 30-60 s, most of it npm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startReference } from '../../harness/reference/index.ts';
import { ROOT, sh } from '../helpers/cli.ts';
import { againWhileShort, shortForLoad } from '../sink/stall.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as
  { name: string; version: string; files: string[]; dependencies: Record<string, string> };


/** Bare package names a source file imports at run time (not types, not node: or relative paths). */
function runtimeImports(text: string): string[] {
  const names = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^'.][^']*)'|import\(\s*'([^'.][^']*)'\s*\)|^import\s+'([^'.][^']*)'/gm)]
    .map(m => m[1] ?? m[2] ?? m[3]).filter(n => !n.startsWith('node:'));
  return names.map(n => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0]));
}

test('every package the published files import at run time is a dependency', () => {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []);
  const used = new Map<string, string>();
  for (const folder of pkg.files.filter(f => f.endsWith('/') && existsSync(join(ROOT, f))))
    for (const file of walk(join(ROOT, folder))) for (const name of runtimeImports(readFileSync(file, 'utf8'))) used.set(name, file.slice(ROOT.length));
  const missing = [...used].filter(([name]) => !pkg.dependencies[name]).map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(missing, [], 'imported at run time but not in dependencies');
  assert.ok(used.has('@playwright/test') && used.has('tsx') && used.has('ajv'), [...used.keys()].join(', '));
});

// The container definition and the CI examples, read as data.
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
const runs = [...dockerfile.matchAll(/^RUN (.+)$/gm)].map(m => m[1].trim());
interface Step { name?: string; run?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string>; if?: string;
  'working-directory'?: string }
const github = parse(readFileSync(join(ROOT, 'examples/github-actions/conformance.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const ghSteps = Object.values(github.jobs)[0].steps;
const gitlab = parse(readFileSync(join(ROOT, 'examples/gitlab-ci/conformance.gitlab-ci.yml'), 'utf8')) as Record<string, {
  image: string; script: string[]; variables: Record<string, string>; artifacts: { when: string; paths: string[]; reports: { junit: string } };
}>;
const glJob = Object.values(gitlab)[0];

/** GitHub's ${{ vars.X }}, ${{ secrets.X }} and ${{ vars.X || 'default' }}, from the test's values. */
function expand(value: string, values: Record<string, string>): string {
  return value.replace(/\$\{\{\s*(?:vars|secrets)\.(\w+)(?:\s*\|\|\s*'([^']*)')?\s*\}\}/g, (_, name: string, dflt?: string) => values[name] || dflt || '');
}

test('the image is Debian with Node 20 and Debian\'s Chromium; the CI examples install the package with the same npm command', () => {
  const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map(m => m[1]);
  assert.ok(froms.length >= 1 && froms.every(f => /^node:20-bookworm(-slim)?$/.test(f)), `Debian bookworm with Node 20: ${froms.join(', ')}`);
  assert.ok(runs.some(r => /apt-get install -y --no-install-recommends chromium\b/.test(r)), 'Chromium from Debian');
  assert.match(dockerfile, /^ENTRYPOINT \["pis-conformance"\]$/m);
  const install = runs.find(r => r.startsWith('npm install -g'))!.split(' && ')[0];
  const pack = runs.find(r => r.includes('npm pack'))!;
  const ghInstall = ghSteps.find(s => s.run?.startsWith('npm install -g'))!.run!;
  assert.equal(ghSteps.find(s => s.run?.includes('npm pack'))!.run, pack, 'GitHub Actions packs as the image does');
  assert.equal(ghInstall, install, 'GitHub Actions installs the tarball as the image does');
  assert.ok(glJob.script.some(l => l.includes(pack)), 'GitLab CI packs as the image does');
  assert.ok(glJob.script.includes(install), 'GitLab CI installs the tarball as the image does');
  // Never by name: the name is not claimed on the registry, and whoever claims it would run in the pipeline.
  for (const line of [...ghSteps.map(s => s.run ?? ''), ...glJob.script])
    assert.doesNotMatch(line, /npm (install|i|exec)\b[^|&;]*\spis-conformance(@[^\s]*)?(\s|$)|npx pis-conformance/, line);
  assert.match(glJob.image, /^node:20-bookworm/);
  // Both gates upload the report folder whatever the verdict.
  const upload = ghSteps.find(s => s.uses?.startsWith('actions/upload-artifact'))!;
  assert.equal(upload.if, 'always()');
  assert.equal(glJob.artifacts.when, 'always');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const tgz = `${pkg.name}-${pkg.version}.tgz`;
  for (const line of ['docker build -t pis-conformance .', 'examples/github-actions/conformance.yml',
      'examples/gitlab-ci/conformance.gitlab-ci.yml', 'npm pack', `npm install -g ./${tgz}`, `npm exec --package ./${tgz} -- pis-conformance`,
      'node /path/to/pis-conformance/bin/pis-conformance.mjs'])
    assert.ok(readme.includes(line), `README.md shows ${line}`);
  // Outside the checkout, npx by name fetches whatever the registry holds under it: README says so where it uses npx.
  assert.match(readme, /`npx pis-conformance` finds this checkout's own binary/);
});

test('packed and installed by the Dockerfile\'s commands, the binary works from any folder, and the CI examples gate on the verdict', async t => {
  const tmp = mkdtempSync(join(tmpdir(), 'pis-package-'));
  const prefix = join(tmp, 'global');
  const npmEnv = { npm_config_prefix: prefix, npm_config_prefer_offline: 'true', PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };
  const refs: Array<{ close(): Promise<void> }> = [];
  try {
    // The GitHub example's steps: the checkout of pis-conformance (here a link to this one), npm pack there as the image
    // does, then the install (here into a temporary prefix).
    const gh = mkdtempSync(join(tmp, 'github-job-'));
    symlinkSync(ROOT, join(gh, 'pis-conformance'));
    const packStep = ghSteps.find(s => s.run?.includes('npm pack'))!;
    const pack = await sh(packStep.run!.replaceAll('/tmp/pack', join(tmp, 'pack')), join(gh, packStep['working-directory']!));
    assert.equal(pack.code, 0, pack.stderr);
    const tarball = readdirSync(join(tmp, 'pack')).find(f => f.endsWith('.tgz'))!;
    const files = (await sh(`tar tzf ${join(tmp, 'pack', tarball)}`, tmp)).stdout.split('\n').map(f => f.replace(/^package\//, ''));
    for (const f of ['bin/pis-conformance.mjs', 'harness/cli.ts', 'harness/reference/catalog.yaml', 'suites/playwright.config.ts', 'suites/token.spec.ts',
        'contracts/webhook-normal.yaml', 'README.md'])
      assert.ok(files.includes(f), `the tarball holds ${f}`);
    assert.deepEqual(files.filter(f => /^(test|bench|scripts|reports|examples|\.ci)\//.test(f)), [],
      'no tests, benchmarks, examples or reports in the tarball');
    const install = await sh(ghSteps.find(s => s.run?.startsWith('npm install -g'))!.run!.replaceAll('/tmp/pack', join(tmp, 'pack')), gh, npmEnv);
    assert.equal(install.code, 0, install.stdout + install.stderr);
    // The GitLab example's clone and pack lines, with this repository as PIS_CONFORMANCE_REPOSITORY: they build the tarball it installs.
    const gl = mkdtempSync(join(tmp, 'gitlab-job-'));
    const glBuild = glJob.script.slice(0, glJob.script.findIndex(l => l.startsWith('npm install -g'))).join('\n')
      .replaceAll('/tmp/pack', join(tmp, 'pack-gitlab')).replaceAll('/tmp/pis-conformance', join(tmp, 'clone'));
    const built = await sh(glBuild, gl, { PIS_CONFORMANCE_REPOSITORY: ROOT, CI_PROJECT_DIR: gl });
    assert.equal(built.code, 0, built.stdout + built.stderr);
    assert.deepEqual(readdirSync(join(tmp, 'pack-gitlab')), [tarball]);

    const work = mkdtempSync(join(tmp, 'elsewhere-'));
    copyFileSync(join(ROOT, 'test/fixtures/contracts/valid/normal-started.json'), join(work, 'body.json'));
    const [version, help, validate] = await Promise.all(['pis-conformance --version', 'pis-conformance --help', 'pis-conformance validate body.json']
      .map(c => sh(c, work, npmEnv)));
    assert.equal(version.stdout.trim(), `${pkg.name} ${pkg.version}`, version.stderr);
    assert.match(help.stdout, /Usage: pis-conformance <command>/);
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    assert.match(validate.stdout, /^body\.json:1 {2}webhook-normal {2}valid\n/);
    // README's two ways without a global install, from a folder outside the checkout: the checkout's path, and npm exec of the tarball.
    copyFileSync(join(tmp, 'pack', tarball), join(work, tarball));
    const [byPath, byExec] = await Promise.all([sh(`node ${join(ROOT, 'bin/pis-conformance.mjs')} --version`, work),
      sh(`npm exec --yes --package ./${tarball} -- pis-conformance --version`, work, { npm_config_prefer_offline: 'true' })]);
    assert.equal(byPath.stdout.trim(), `${pkg.name} ${pkg.version}`, byPath.stderr);
    assert.equal(byExec.stdout.trim(), `${pkg.name} ${pkg.version}`, byExec.stderr);

    // The examples' run commands against the bundled reference, whose access tokens live 100 spec s (1 s at this scale)
    // and refresh tokens 400 spec s (4 s: a refresh chain's exchanges outlived 2 s at load 10).
    const scale = 0.01;
    const gate = async (example: 'github' | 'gitlab', suites: string, faults: string[], control: boolean) => {
      const ref = await startReference({ timeScale: scale, faults, lifetimes: { accessS: 100, refreshS: 400, consentS: 200 } });
      refs.push(ref);
      const dir = mkdtempSync(join(tmp, `${example}-`));
      writeFileSync(join(dir, 'conformance.yaml'), `suites: ${suites}\ntimeScale: ${scale}\nmaxWait: 30\n`);
      const values: Record<string, string> = { PIS_AUTH_URL: ref.authUrl, PIS_CLIENT_ID: ref.clientId, PIS_BASE_URL: ref.baseUrl,
        PIS_CONTROL_URL: control ? ref.controlUrl : '', PIS_CLIENT_SECRET: ref.clientSecret, PIS_WEBHOOK_API_KEY: 'gate-key-1234',
        GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
      const once = () => {
        if (example === 'github') {
          const step = ghSteps.find(s => s.run?.startsWith('pis-conformance run'))!;
          const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), values)]));
          return sh(step.run!, dir, { ...npmEnv, ...env, GITHUB_STEP_SUMMARY: values.GITHUB_STEP_SUMMARY });
        }
        return sh(glJob.script.find(l => l.startsWith('pis-conformance run'))!, dir, { ...npmEnv, ...values });
      };
      // The references answer from this process, which the machine's load may stall past the pre-flight's 3 s a call
      // (a whole npm test at load 14 saw the webhook job end in that harness error, exit 2): such a job runs again, up
      // to twice; any other outcome is judged.
      let r = await once();
      for (let i = 0; i < 2 && r.code === 2 && /no complete answer within/.test(r.stdout + r.stderr); i++) {
        t.diagnostic(`${example} ${suites}: the pre-flight missed its 3 s, run again: ${r.stderr.trim()}`);
        r = await once();
      }
      return { r, dir, report: join(dir, example === 'github' ? ghSteps.find(s => s.uses?.startsWith('actions/upload-artifact'))!.with!.path
        : glJob.artifacts.paths[0]) };
    };
    const [first, broken, incomplete] = await Promise.all([
      gate('github', 'token', [], true),
      gate('github', 'token', ['token-type-mac'], true),
      gate('gitlab', 'webhook', [], false),
    ]);
    // A clean job short of Conformant only by checks its run left not run for the machine's load (a refresh chain that
    // outlived its token's 4 real s in a clean-clone CI run) runs again, up to twice; still so, its verdict is not judged.
    const { run: clean, busy } = await againWhileShort(first, () => gate('github', 'token', [], true), g => {
      if (g.r.code === 0) return undefined;
      try { return shortForLoad(JSON.parse(readFileSync(join(g.report, 'results.json'), 'utf8')).checks); } catch { return undefined; }
    }, s => t.diagnostic(`the clean job: ${s}`));
    if (busy) t.skip(`the clean job's verdict: ${busy}`);
    else {
      assert.equal(clean.r.code, 0, clean.r.stdout + clean.r.stderr);
      assert.doesNotMatch(clean.r.stdout, /^::error/m);
      assert.match(readFileSync(join(clean.dir, 'summary.md'), 'utf8'), /^### pis-conformance: Conformant/);
    }
    assert.equal(broken.r.code, 1, `Not conformant fails the job: ${broken.r.stdout}\n${broken.r.stderr}`);
    assert.match(broken.r.stdout, /^::error title=FAIL token\.issue\.token-type/m);
    assert.equal(incomplete.r.code, 1, `Incomplete fails the job: ${incomplete.r.stdout}\n${incomplete.r.stderr}`);
    assert.match(incomplete.r.stdout, /Incomplete/);
    for (const g of [clean, broken, incomplete])
      for (const f of ['index.html', 'results.json', 'junit.xml']) assert.ok(existsSync(join(g.report, f)), `the uploaded folder ${g.report} holds ${f}`);
  } finally {
    for (const r of refs) await r.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
