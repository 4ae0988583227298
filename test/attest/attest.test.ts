// The five commands of README.md's "A certificate anyone can verify", run as
// written: `run --attest` on the run `npm start` makes (every suite against
// the bundled reference) and again at API version 2.0.0, `verify` with the
// report folder and the strictest policy, `matrix` of the two. The independent
// check of ./independent.ts (openssl for the signature) accepts the
// certificate too; one changed byte of any report file, of the statement or
// of the signature makes both refuse.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { ROOT, runCli } from '../helpers/cli.ts';
import { flipped, opensslAccepts, statementOf, subjectsMatch } from './independent.ts';
import { judgeable, tooBusyToJudge } from '../sink/stall.ts';

/** Stalls of this process stand for the machine's load (the runs' reference and suites are child processes), as in test/run/default.test.ts. */
const STALL_LIMIT_MS = 150;

const tmp = mkdtempSync(join(tmpdir(), 'pis-attest-'));
const dir = join(tmp, 'runs', 'acme'), key = join(tmp, 'acme.key'), pub = join(tmp, 'acme.pub'), policy = join(tmp, 'policy.yaml');
const envelope = join(dir, 'attestation.intoto.json');
const outputs: string[] = [];
/** Why a run of the commands could not be judged on this machine (three tries, each too busy), if one could not. */
let tooBusy: string | undefined;

/** The commands of README.md's certificate section, as argument lists (each line's comment left out). */
function readmeCommands(): string[][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## A certificate anyone can verify')))![1]!;
  return block.split('\n').filter(l => l.startsWith('npx pis-conformance '))
    .map(l => l.replace(/\s+#.*$/, '').slice('npx pis-conformance '.length).split(/\s+/));
}

/** A shell's expansion of an argument `folder/STAR/file` (STAR: an asterisk). */
function glob(arg: string): string[] {
  const m = /^(.*)\/\*\/(.*)$/.exec(arg);
  return m ? readdirSync(join(tmp, m[1]!)).sort().map(d => `${m[1]}/${d}/${m[2]}`) : [arg];
}

before(async () => {
  writeFileSync(policy, '{}\n');
  const commands = readmeCommands();
  assert.deepEqual(commands.map(c => c[0]), ['keygen', 'run', 'verify', 'run', 'matrix']);
  for (const c of commands) {
    // A run that the machine's load left short of judging (a check not run for it) is made again, up to three times.
    const report = c[0] === 'run' ? join(tmp, c[c.indexOf('--report') + 1]!) : undefined;
    const once = async () => {
      const r = await runCli(c.flatMap(glob), { cwd: tmp, timeoutMs: 170_000 });
      let checks: Parameters<typeof tooBusyToJudge>[0] = [];
      try { if (report) checks = JSON.parse(readFileSync(join(report, 'results.json'), 'utf8')).checks; } catch { /* asserted below */ }
      return { r, checks };
    };
    const { result: { r, checks }, blurred } = report ? await judgeable(once, STALL_LIMIT_MS, x => x.r.code === 0) : { result: await once(), blurred: '' };
    outputs.push(r.stdout + r.stderr);
    // Left not run only what the load kept it from judging (the opaque tokens' check is not applicable, as in every run
    // of the bundled reference): the certificate says FAILED, and what needs it PASSED is skipped with this reason.
    const busy = tooBusyToJudge(checks, blurred, x => x.id === 'token.use.tampered-token-refused');
    if (busy) tooBusy ??= `${c.join(' ')}: ${busy}`;
    if (!tooBusy) assert.equal(r.code, 0, `${c.join(' ')}: ${r.stdout}${r.stderr}${blurred}`);
  }
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('the certificate of a whole run: verify and an independent openssl check accept it; the matrix shows both versions', async t => {
  if (tooBusy) { t.skip(tooBusy); return; }
  assert.equal(statSync(key).mode & 0o777, 0o600, 'the private key is readable by its owner only');
  assert.match(outputs[1]!, /Certificate: .*attestation\.intoto\.json \(PASSED\)/);
  assert.match(outputs[2]!, /^Verified: .*bundled reference, API version 3\.2\.0, PASSED \(Conformant\); checked the files of .* and the policy\.\n$/);
  assert.match(outputs[3]!, /Certificate: .*attestation\.intoto\.json \(PASSED\)/);
  assert.match(outputs[4]!, /wrote matrix\.html: 2 verified certificates, 0 refused/);
  const text = readFileSync(envelope, 'utf8');
  const s = statementOf(text);
  assert.equal(s._type, 'https://in-toto.io/Statement/v1');
  assert.equal(s.predicateType, 'https://in-toto.io/attestation/test-result/v0.1');
  assert.deepEqual(s.subject.map(x => x.name).sort(), ['index.html', 'junit.xml', 'plan.json', 'results.json', 'results.jsonl']);
  const checks = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).checks as { id: string; status: string; skipKind?: string }[];
  assert.equal(s.predicate.result, 'PASSED');
  // Every check passed but those not applicable to the reference (its opaque tokens have no JWT claims to change), listed apart.
  assert.deepEqual(s.predicate.passedTests.sort(), checks.filter(c => c.status === 'passed').map(c => c.id).sort());
  const notApplicable = (s.predicate.conformance as { notApplicableTests: string[] }).notApplicableTests;
  assert.deepEqual(notApplicable.sort(), checks.filter(c => c.skipKind === 'not-applicable').map(c => c.id).sort());
  assert.equal(s.predicate.passedTests.length + notApplicable.length, checks.length);
  assert.ok(opensslAccepts(text, readFileSync(pub, 'utf8')));
  assert.ok(subjectsMatch(text, dir));
  const v = await runCli(['verify', envelope, '--key', pub, '--report', dir, '--policy', policy]);
  assert.equal(v.code, 0, v.stdout + v.stderr);
  assert.match(v.stdout, /^Verified: .*PASSED \(Conformant\); checked the files of .* and the policy\.\n$/);
});

test('one flipped byte of any report file: verify and the independent check refuse', async () => {
  const files = readdirSync(dir).filter(f => f !== 'attestation.intoto.json');
  assert.equal(files.length, 5);
  for (const f of files) {
    const copy = join(tmp, `flip-${f}`);
    cpSync(dir, copy, { recursive: true });
    const bytes = readFileSync(join(copy, f));
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    writeFileSync(join(copy, f), bytes);
    const text = readFileSync(join(copy, 'attestation.intoto.json'), 'utf8');
    assert.equal(subjectsMatch(text, copy), false, f);
    const v = await runCli(['verify', join(copy, 'attestation.intoto.json'), '--key', pub, '--report', copy]);
    assert.equal(v.code, 1, `${f}: ${v.stdout}${v.stderr}`);
    assert.ok(v.stdout.includes(`${join(copy, f)} is not the file that was signed`), v.stdout);
  }
});

test('one flipped byte of the statement or of the signature: verify and openssl refuse', async () => {
  const text = readFileSync(envelope, 'utf8');
  const length = Buffer.from(JSON.parse(text).payload, 'base64').length;
  for (const [part, at] of [['payload', 10], ['payload', Math.floor(length / 2)], ['payload', length - 2], ['sig', 0], ['sig', 33]] as const) {
    const bad = join(tmp, `bad-${part}-${at}.json`);
    writeFileSync(bad, flipped(text, part, at));
    assert.equal(opensslAccepts(readFileSync(bad, 'utf8'), readFileSync(pub, 'utf8')), false, `${part}@${at}`);
    const v = await runCli(['verify', bad, '--key', pub, '--report', dir]);
    assert.equal(v.code, 1, `${part}@${at}: ${v.stdout}`);
    assert.match(v.stdout, /No signature of the envelope verifies|not JSON/);
  }
});

test('another key, a missing key, an RSA key, no envelope: refused with exit 1, or one error line with exit 2', async () => {
  const other = join(tmp, 'other');
  await runCli(['keygen', '--out', other, '--type', 'ecdsa-p256']);
  const rsa = join(tmp, 'rsa.pem');
  writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const [wrong, none, rsaSign, missing, again] = await Promise.all([
    runCli(['verify', envelope, '--key', `${other}.pub`]),
    runCli(['verify', envelope]),
    runCli(['attest', dir, '--key', rsa, '--out', join(tmp, 'x.json')]),
    runCli(['verify', join(tmp, 'nothing.json'), '--key', pub]),
    runCli(['keygen', '--out', other]),
  ]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stdout, /No signature of the envelope verifies with the given public key/);
  assert.deepEqual([none.code, none.stderr.match(/\[(\w+)\]/)?.[1]], [2, 'PIS_MISSING_OPTION']);
  assert.deepEqual([rsaSign.code, rsaSign.stderr.match(/\[(\w+)\]/)?.[1]], [2, 'PIS_BAD_KEY']);
  assert.match(rsaSign.stderr, /is rsa: give an Ed25519 or ECDSA P-256 key/);
  assert.deepEqual([missing.code, missing.stderr.match(/\[(\w+)\]/)?.[1]], [2, 'PIS_BAD_INPUT']);
  assert.deepEqual([again.code, again.stderr.match(/\[(\w+)\]/)?.[1]], [2, 'PIS_BAD_FLAG']);
  assert.match(again.stderr, /exists already/);
});
