// Curl lines repeat a request with secrets as variables the reader sets, and
// a shell reads them back into exactly the request that was sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { curlLine } from '../../harness/http/curl.ts';
import { Redactor } from '../../harness/report/redact.ts';

/** The arguments a POSIX shell makes of a curl line, with the given variables set. */
function shellArgs(line: string, env: Record<string, string>): string[] {
  const out = execFileSync('sh', ['-c', `set -- ${line.replace(/^curl /, '')}; for a in "$@"; do printf '%s\\0' "$a"; done`],
    { env: { PATH: process.env.PATH, ...env } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

test('a short api-key in the control request body becomes its variable (before: written as is)', () => {
  const body = JSON.stringify({ kind: 'normal', webhook: { url: 'http://127.0.0.1:1/hooks', apiKey: 'k1' } });
  const line = curlLine('POST', 'http://127.0.0.1:2/control/checkouts', { 'content-type': 'application/json' }, body,
    new Redactor().add('k1', 'PIS_WEBHOOK_API_KEY'));
  assert.doesNotMatch(line, /k1/);
  assert.match(line, /\\"apiKey\\":\\"\$PIS_WEBHOOK_API_KEY\\"/);
  assert.equal(shellArgs(line, { PIS_WEBHOOK_API_KEY: 'k1' }).at(-1), body);
});

test('known secrets in headers and form fields become variables; a wrong key sent on purpose stays; a literal $ stays one', () => {
  const r = new Redactor().add('tok-123456', 'PIS_ACCESS_TOKEN').add('the-secret', 'PIS_CLIENT_SECRET').add('rt-98765', 'PIS_REFRESH_TOKEN');
  const headers = { authorization: 'Bearer tok-123456', 'api-key': 'wrong-key', 'x-note': 'costs $5 `now` "here"' };
  const form = 'grant_type=refresh_token&client_id=c&client_secret=the-secret&refresh_token=rt-98765';
  const line = curlLine('POST', 'http://h/token?price=$1', { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, form, r);
  for (const s of ['tok-123456', 'the-secret', 'rt-98765']) assert.ok(!line.includes(s), `${s} in ${line}`);
  const args = shellArgs(line, { PIS_ACCESS_TOKEN: 'tok-123456', PIS_CLIENT_SECRET: 'the-secret', PIS_REFRESH_TOKEN: 'rt-98765' });
  assert.deepEqual(args, ['-sS', '-X', 'POST', 'http://h/token?price=$1', '-H', 'authorization: Bearer tok-123456', '-H', 'api-key: wrong-key',
    '-H', 'x-note: costs $5 `now` "here"', '-H', 'content-type: application/x-www-form-urlencoded', '--data-raw', form]);
  assert.equal(r.text(line), line, 'the report redactor leaves the line as it is');
});

test('a line without secrets is single-quoted and reads back as is', () => {
  const body = `{"note":"it's \\"quoted\\" $HOME","apiKey":"not-registered"}`;
  const line = curlLine('POST', 'http://h/x', { 'content-type': 'application/json' }, body, new Redactor());
  assert.equal(shellArgs(line, {}).at(-1), body);
});
