// The validate command as a user runs it: a child process over the fixture
// corpus (test/fixtures/contracts/manifest.json), its output and exit status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli, ROOT, type CliResult } from '../helpers/cli.ts';

const FIXTURES = join(ROOT, 'test/fixtures/contracts');
interface Meta { kind?: string; as?: string; pointer?: string; warnings?: string[]; profile?: string[]; items?: number }
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as { valid: Record<string, Meta>; invalid: Record<string, Meta> };

interface Finding { level: string; pointer: string }
interface Item { where: string; kind: string; verdict: string; findings: Finding[] }

/** Parses validate's stdout: an item line, then its findings indented by four spaces. */
function parse(stdout: string): { items: Item[]; summary: string } {
  const items: Item[] = [];
  let summary = '';
  for (const line of stdout.split('\n').filter(Boolean)) {
    const finding = /^ {4}(must|should|profile)\s+(\S+|\(whole item\)):/.exec(line);
    if (finding) { items.at(-1)!.findings.push({ level: finding[1], pointer: finding[2] }); continue; }
    if (line.startsWith('validate: ')) { summary = line; continue; }
    const m = /^(\S+)  (\S+)  (.*)$/.exec(line);
    assert.ok(m, `unexpected output line: ${line}`);
    items.push({ where: m[1], kind: m[2], verdict: m[3], findings: [] });
  }
  return { items, summary };
}

/** Groups fixtures by their --as kind, so one child process judges each group. */
function groups(set: Record<string, Meta>): Map<string | undefined, string[]> {
  const g = new Map<string | undefined, string[]>();
  for (const [file, meta] of Object.entries(set)) g.set(meta.as, [...(g.get(meta.as) ?? []), file]);
  return g;
}

/**
 * Webhook bodies and token answers (what validate tells by itself) and one
 * --as group go through the command; the other record fixtures go through
 * validateContract below, because each --as group costs a child process.
 */
const cliGroup = (as: string | undefined) => as === undefined || as === 'transaction';

const run = (files: string[], dir: string, as?: string): Promise<CliResult> =>
  runCli(['validate', ...(as ? ['--as', as] : []), ...files.map(f => join(dir, f))]);

function noStack(r: CliResult) {
  assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .+:\d+:\d+/, 'no stack trace');
}

test('every valid fixture is valid, of the expected kind, with exactly the expected warnings', async () => {
  const results = await Promise.all([...groups(manifest.valid)].filter(([as]) => cliGroup(as))
    .map(async ([as, files]) => ({ files, r: await run(files, join(FIXTURES, 'valid'), as) })));
  let count = 0;
  for (const { files, r } of results) {
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const { items, summary } = parse(r.stdout);
    for (const file of files) {
      const meta = manifest.valid[file];
      const mine = items.filter(i => i.where.startsWith(`${join(FIXTURES, 'valid', file)}:`));
      assert.equal(mine.length, meta.items ?? 1, `${file}: items`);
      for (const item of mine) {
        assert.match(item.verdict, /^valid/, `${file}: ${item.verdict}`);
        if (meta.kind) assert.equal(item.kind, meta.kind, `${file}: kind`);
        assert.deepEqual(item.findings.filter(f => f.level === 'should').map(f => f.pointer), meta.warnings ?? [], `${file}: warnings`);
        assert.deepEqual(item.findings.filter(f => f.level === 'profile').map(f => f.pointer), meta.profile ?? [], `${file}: profile notes`);
      }
      count += mine.length;
    }
    assert.match(summary, new RegExp(`^validate: ${items.length} items?, ${items.length} valid`));
  }
  assert.ok(count >= 30, `at least 30 valid items, got ${count}`);
});

test('the record fixtures validated with --as get the same verdicts from validateContract', async () => {
  const { validateContract, isConformant } = await import('../../harness/contracts/index.ts');
  type Name = Parameters<typeof validateContract>[0];
  for (const [set, dir] of [[manifest.valid, 'valid'], [manifest.invalid, 'invalid']] as const)
    for (const [file, meta] of Object.entries(set)) {
      if (cliGroup(meta.as)) continue;
      const text = readFileSync(join(FIXTURES, dir, file), 'utf8');
      const values = file.endsWith('.jsonl') ? text.split('\n').filter(Boolean).map(l => JSON.parse(l) as unknown) : [JSON.parse(text) as unknown];
      for (const value of values) {
        const v = validateContract(meta.as as Name, value);
        if (dir === 'valid') assert.ok(isConformant(v), `${file}: ${JSON.stringify(v)}`);
        else assert.deepEqual(v.filter(x => x.level === 'must').map(x => x.pointer), [meta.pointer], file);
      }
    }
});

test('every invalid fixture is invalid with its single violation at the pointer its name says', async () => {
  const results = await Promise.all([...groups(manifest.invalid)].filter(([as]) => cliGroup(as))
    .map(async ([as, files]) => ({ files, r: await run(files, join(FIXTURES, 'invalid'), as) })));
  for (const { files, r } of results) {
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    noStack(r);
    const { items } = parse(r.stdout);
    for (const file of files) {
      const item = items.find(i => i.where === `${join(FIXTURES, 'invalid', file)}:1`);
      assert.ok(item, `${file} judged`);
      assert.match(item.verdict, /^INVALID \(1 violation/, `${file}: ${item.verdict}`);
      assert.deepEqual(item.findings.filter(f => f.level === 'must').map(f => f.pointer), [manifest.invalid[file].pointer], file);
    }
  }
  assert.ok(Object.keys(manifest.invalid).length >= 30);
});

test('the valid fixtures use every value of every enum: statuses, abortReason, Nordic codes and countries, services, currencies', async () => {
  const { CHECKOUT_STATUSES, TRANSACTION_STATUSES, ABORT_REASONS, NORDIC_PAYMENT_CODES, KNOWN_SUPPORTED_SERVICES, CURRENCIES, NORDIC_COUNTRIES } =
    await import('../../harness/contracts/enums.ts');
  const text = Object.keys(manifest.valid).map(f => readFileSync(join(FIXTURES, 'valid', f), 'utf8')).join('\n');
  const seen = (field: string) => new Set([...text.matchAll(new RegExp(`"${field}": ?"([^"]+)"`, 'g'))].map(m => m[1]));
  for (const s of CHECKOUT_STATUSES) assert.ok(seen('status').has(s), `status ${s}`);
  for (const s of TRANSACTION_STATUSES) assert.ok(seen('transactionStatus').has(s), `transactionStatus ${s}`);
  for (const s of ABORT_REASONS) assert.ok(seen('abortReason').has(s), `abortReason ${s}`);
  for (const s of NORDIC_PAYMENT_CODES) assert.ok(seen('status').has(s), `payment status ${s}`);
  for (const s of KNOWN_SUPPORTED_SERVICES) assert.ok(text.includes(`"${s}"`), `supportedServices ${s}`);
  for (const s of CURRENCIES) assert.ok(seen('currency').has(s), `currency ${s}`);
  for (const s of NORDIC_COUNTRIES) assert.ok(seen('countryCode').has(s), `countryCode ${s}`);
});

test('JSON lines and JSON arrays: one verdict per item with its line; the worst item decides the exit status', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-validate-'));
  try {
    const good = readFileSync(join(FIXTURES, 'valid/normal-started.json'), 'utf8');
    const bad = readFileSync(join(FIXTURES, 'invalid/normal-amount-not-decimal.json'), 'utf8');
    writeFileSync(join(dir, 'mixed.jsonl'), `${JSON.stringify(JSON.parse(good))}\n\n${JSON.stringify(JSON.parse(bad))}\n`);
    writeFileSync(join(dir, 'array.json'), `[\n  ${JSON.stringify(JSON.parse(good))},\n  ${JSON.stringify(JSON.parse(good))}\n]\n`);
    // runCli's child resolves tsx from its cwd, so it runs in the project and gets absolute paths.
    // Pretty-printed values one after another are items too.
    writeFileSync(join(dir, 'stream.json'), `${good.trim()}\n${good.trim()}\n`);
    const second = good.trim().split('\n').length + 1;
    // A folder stands for its .json and .jsonl files, in name order.
    const r = await runCli(['validate', dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(parse(r.stdout).items.map(i => [i.where, i.verdict.split(' ')[0]]), [
      [`${dir}/array.json:2`, 'valid'], [`${dir}/array.json:3`, 'valid'], [`${dir}/mixed.jsonl:1`, 'valid'], [`${dir}/mixed.jsonl:3`, 'INVALID'],
      [`${dir}/stream.json:1`, 'valid'], [`${dir}/stream.json:${second}`, 'valid']]);
    assert.match(r.stdout, /validate: 6 items, 5 valid, 1 invalid/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a long output through a pipe arrives whole (the CLI exits right after the command)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-validate-'));
  try {
    const line = JSON.stringify(JSON.parse(readFileSync(join(FIXTURES, 'valid/batch-completed.json'), 'utf8')));
    writeFileSync(join(dir, 'many.jsonl'), `${line}\n`.repeat(5000));
    const r = await runCli(['validate', join(dir, 'many.jsonl')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(parse(r.stdout).items.length, 5000);
    assert.match(r.stdout, /validate: 5000 items, 5000 valid, 0 invalid\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input is one sentence on stderr and exit status 2, never a stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-validate-'));
  try {
    writeFileSync(join(dir, 'empty.json'), '  \n');
    writeFileSync(join(dir, 'broken.json'), '{\n  "id": "c-1",\n  "status": STARTED\n}\n');
    writeFileSync(join(dir, 'broken.jsonl'), 'nope\n{"id": "b",}\n');
    writeFileSync(join(dir, 'empty-array.json'), '[]');
    writeFileSync(join(dir, 'unknown.json'), '{"hello": "world"}');
    mkdirSync(join(dir, 'empty-folder'));
    const cases: Array<[string[], RegExp]> = [
      [['validate', 'missing.json'], /Cannot read \S*missing\.json \(there is no such file\)/],
      [['validate', 'empty.json'], /empty\.json is empty/],
      [['validate', 'broken.json'], /broken\.json is not JSON at line 3, column 13/],
      [['validate', 'broken.jsonl'], /broken\.jsonl is not JSON at line 1, column 1 \(expected a JSON value, found "nope"\)/],
      [['validate', 'empty-array.json'], /empty-array\.json is not JSON at line 1, column 2 \(an empty array/],
      [['validate', 'unknown.json'], /neither a webhook body nor a token response: name the kind with --as KIND/],
      [['validate', '--as', 'receipt', 'unknown.json'], /--as receipt is not a kind: use one of webhook, normal/],
      [['validate'], /No file given/],
      [['validate', join(dir, 'empty-folder')], /holds no \.json, \.jsonl or \.ndjson file/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args.map(a => a.endsWith('.json') || a.endsWith('.jsonl') ? join(dir, a) : a))));
    results.forEach((r, i) => {
      assert.equal(r.code, 2, `${cases[i][0].join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, cases[i][1]);
      assert.equal(r.stderr.trim().split('\n').length, 1, `one sentence: ${r.stderr}`);
      noStack(r);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cut-off line is reported with its line and column, every other item is still judged, and the run exits 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-validate-'));
  try {
    const good = JSON.stringify(JSON.parse(readFileSync(join(FIXTURES, 'valid/normal-started.json'), 'utf8')));
    const cut = good.slice(0, 80);
    writeFileSync(join(dir, 'cut.jsonl'), `${good}\n${cut}\n${good}\n${good}\n`);
    const [r, json] = await Promise.all([runCli(['validate', join(dir, 'cut.jsonl'), join(dir, 'missing.json')]),
      runCli(['validate', '--json', join(dir, 'cut.jsonl')])]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      `${dir}/cut.jsonl:1  webhook-normal  valid`,
      `${dir}/cut.jsonl:2:81  unreadable  not JSON: a line break inside a string (is the line cut off?), found the end of the line`,
      `${dir}/cut.jsonl:3  webhook-normal  valid`,
      `${dir}/cut.jsonl:4  webhook-normal  valid`,
      `${dir}/missing.json  unreadable  cannot read it: there is no such file`,
      'validate: 3 items, 3 valid, 0 invalid; 2 places not readable as JSON',
    ]);
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stdout.trim().split('\n')[1]), { file: join(dir, 'cut.jsonl'), line: 2, column: 81, kind: 'unreadable',
      verdict: 'unreadable', reason: 'a line break inside a string (is the line cut off?), found the end of the line' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('what JSON.parse hides is reported: a field given twice, bytes that are not UTF-8; a 100,000-deep array is judged, not a crash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-validate-'));
  try {
    const body = JSON.parse(readFileSync(join(FIXTURES, 'valid/normal-started.json'), 'utf8')) as Record<string, unknown>;
    const line = JSON.stringify({ ...body, status: 'FAILED' });
    writeFileSync(join(dir, 'twice.json'), line.replace('"status":"FAILED"', '"status":"FAILED","status":"STARTED"'));
    const [before, after] = line.split('"referenceId":"');
    writeFileSync(join(dir, 'latin1.json'), Buffer.concat([Buffer.from(`${before}"referenceId":"K`), Buffer.from([0xf8]), Buffer.from(`pi-${after}`)]));
    writeFileSync(join(dir, 'deep.json'), '['.repeat(100_000) + ']'.repeat(100_000));
    const [twice, latin1, deep] = await Promise.all(['twice.json', 'latin1.json', 'deep.json'].map(f => runCli(['validate', join(dir, f)])));
    assert.equal(twice.code, 1, twice.stdout);
    assert.match(twice.stdout, /twice\.json:1 {2}webhook-normal {2}INVALID \(1 violation\)\n {4}must {4}\/status: expected each field name once per object \(a receiver's parser may keep either value\), found "status" twice \(again at line 1, column \d+\): "FAILED" then "STARTED" {2}\[RFC 8259 4, json\.unique-names\]/);
    assert.equal(latin1.code, 1, latin1.stdout);
    assert.match(latin1.stdout, /must {4}\/referenceId: expected text encoded as UTF-8, found byte 0xf8 at line 1, column \d+, which is not UTF-8/);
    assert.equal(deep.code, 2, deep.stdout + deep.stderr);
    assert.match(deep.stdout, /deep\.json:1 {2}unknown {2}cannot validate: neither a webhook body nor a token response \(an array\)/);
    assert.doesNotMatch(deep.stderr, /internal error/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--as webhook judges an unrecognisable item as an invalid webhook body; stdin is read with -; --no-profile; --json', async () => {
  const [asWebhook, stdin, noProfile, json] = await Promise.all([
    runCli(['validate', '--as', 'webhook', '-'], { input: '{"hello": "world"}' }),
    runCli(['validate', '-'], { input: readFileSync(join(FIXTURES, 'valid/token-bearer-capitalized.json'), 'utf8') }),
    runCli(['validate', '--no-profile', join(FIXTURES, 'valid/normal-dates-not-iso.json')]),
    runCli(['validate', '--json', join(FIXTURES, 'invalid/batch-top-level-creditor.json'), join(FIXTURES, 'valid/older-started.json')]),
  ]);
  assert.equal(json.code, 1);
  const rows = json.stdout.trim().split('\n')
    .map(l => JSON.parse(l) as { kind: string; verdict: string; violations: { pointer: string; level: string; spec: string }[] });
  assert.deepEqual(rows.map(r => [r.kind, r.verdict]), [['webhook-batch', 'invalid'], ['webhook-older', 'valid']]);
  assert.deepEqual(rows[0].violations.map(v => [v.pointer, v.level, v.spec]), [['/creditor', 'must', '2.3']]);
  assert.equal(noProfile.code, 0);
  assert.deepEqual(parse(noProfile.stdout).items.map(i => [i.verdict, i.findings.length]), [['valid', 0]]);
  assert.equal(asWebhook.code, 1, asWebhook.stdout + asWebhook.stderr);
  assert.match(asWebhook.stdout, /-:1 {2}webhook {2}INVALID/);
  assert.equal(stdin.code, 0, stdin.stdout + stdin.stderr);
  assert.match(stdin.stdout, /-:1 {2}token-response {2}valid/);
});

test('--help explains the kinds and the exit status', async () => {
  const r = await runCli(['validate', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--as KIND/);
  assert.match(r.stdout, /Exit status: 0/);
});

test('lastModifiedDate before createdDate: validate and the sink judge it by one rule, at one level, in the same words', async () => {
  const file = join(FIXTURES, 'valid/normal-last-modified-before-created.json');
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as { createdDate: string; lastModifiedDate: string };
  const r = await runCli(['validate', file]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const line = /^ {4}should {2}(\/lastModifiedDate: expected .*, found .*) {2}\[spec 2\.2, date\.last-modified-after-created\]$/m.exec(r.stdout);
  assert.ok(line, r.stdout);
  // The sink, shown a body with the same dates, says the same thing about it, at the same level.
  const { analyze } = await import('../../harness/sink/checks/index.ts');
  const { KEY, S, conforming } = await import('../sink/records.ts');
  const { attempts, plan } = conforming();
  const first = attempts.find(a => a.checkoutId === 'clean')!;
  first.body = JSON.stringify({ ...JSON.parse(first.body), createdDate: fixture.createdDate, lastModifiedDate: fixture.lastModifiedDate });
  const c = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S }).find(x => x.id === 'webhook.body.last-modified-forward')!;
  assert.deepEqual([c.status, c.level], ['failed', 'should']);
  assert.ok(c.message!.includes(`${line[1]} [spec 2.2, date.last-modified-after-created]`), `${c.message}\nvalidate: ${line[1]}`);
});
