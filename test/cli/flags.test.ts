// Hostile or mistaken command-line input ends at once with exit 2 and one
// sentence that names the fix (harness/cli/command.ts, harness/config/file.ts),
// the same sentence from every command, and nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';

async function oneSentence(args: string[], pattern: RegExp, env: Record<string, string> = {}) {
  const r = await runCli(args, { env });
  assert.equal(r.code, 2, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  const lines = r.stderr.trim().split('\n').filter(l => !/npm warn/i.test(l));
  assert.equal(lines.length, 1, `not one line on stderr:\n${r.stderr}`);
  assert.match(lines[0]!, pattern);
  return r;
}

test('command-line input', { concurrency: true }, async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-flags-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  const running: Promise<void>[] = [];
  const it = (name: string, fn: () => Promise<unknown>) => { running.push(t.test(name, async () => { await fn(); })); };

  // Before: Node's "argument is ambiguous. Did you forget to specify the option argument ...", three lines.
  it('a negative number says the bounds', () => Promise.all([
    oneSentence(['sink', '--port', '-1', '--api-key', 'some-key'], /^pis-conformance sink: \[PIS_BAD_FLAG\] --port /),
    oneSentence(['sink', '--port', '0', '--api-key', 'some-key', '--duration', '-1'], /^pis-conformance sink: \[PIS_BAD_FLAG\] --duration /),
    oneSentence(['serve-reference', '--port', '-1'], /^pis-conformance serve-reference: \[PIS_BAD_FLAG\] --port /),
    oneSentence(['run', '--sink-port', '-5'], /^pis-conformance run: \[PIS_BAD_FLAG\] --sink-port /),
  ]));

  it('a value that starts with a dash names the --flag=VALUE form', () =>
    oneSentence(['run', '--client-secret', '-abc'], /^pis-conformance run: \[PIS_BAD_FLAG\] --client-secret .*--client-secret=VALUE/));

  // Before: "No check matches --grep '('", as if the pattern were fine.
  it('--grep that is not a regular expression says so', () =>
    oneSentence(['run', '--grep', '('], /^pis-conformance run: \[PIS_BAD_FLAG\] --grep '\(' /));

  // Before: found only after the whole session.
  it('a --report folder that cannot be written is named at start by run, certify-receiver and sink', async () => {
    const bad = join(file, 'report');
    const why = new RegExp(`The report folder ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be made: ` +
      '.*a-file is a file, not a folder; give --report a folder you can write to\\.$');
    const [run] = await Promise.all([
      oneSentence(['run', '--suites', 'token', '--report', bad], why),
      oneSentence(['certify-receiver', '--url', 'http://127.0.0.1:9/hooks', '--api-key', 'some-key', '--report', bad], why),
      oneSentence(['sink', '--port', '0', '--api-key', 'some-key', '--report', bad], why),
    ]);
    assert.doesNotMatch(run.stdout, /Started the bundled reference/, 'nothing started');
  });

  // Before: a 30 MB file took 21 s and 2.1 GB before its error. Parsed, this
  // one would be refused for its repeated key 'k' instead; /dev/zero never ends.
  it('a config file over 1 MiB is refused before it is parsed', () => Promise.all([
    oneSentence(['run', '--config', big()], /^pis-conformance run: \[PIS_BAD_CONFIG\] .*big\.yaml /),
    oneSentence(['run', '--config', '/dev/zero'], /The config file \/dev\/zero is over 1 MiB/),
  ]));
  function big(): string {
    const f = join(dir, 'big.yaml');
    writeFileSync(f, 'base-url: http://127.0.0.1:1/api\n' + 'k: [1, 2, 3, 4, 5, 6, 7, 8]\n'.repeat(80_000));
    return f;
  }

  await Promise.all(running);
  assert.ok(!existsSync(join(file, 'report')));
});
