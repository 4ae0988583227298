// Credentials in a target URL, in the forms the WHATWG parser accepts without
// "//" (`http:alice:PW@host`, `http:\\alice:PW@host`), reach no report file
// and no line of output; a URL that does not parse is shown without them too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import { runCli, runServedHere } from '../helpers/cli.ts';

const PW = 'UserinfoPw-93kq';

test('a password in the userinfo of http:user:PW@host and http:\\\\user:PW@host is in no report file and no output', async () => {
  const ref = await startReference({ timeScale: 0.05 });
  const dirs: string[] = [];
  try {
    const host = ref.authUrl.replace(/^http:\/\//, '');
    for (const base of [`http:alice:${PW}@${host}/api`, `http:\\\\alice:${PW}@${host}/api`]) {
      const dir = mkdtempSync(join(tmpdir(), 'pis-userinfo-'));
      dirs.push(dir);
      const cli = await runServedHere(['run', '--suites', 'data', '--grep', 'data\\.banks\\.(list|by-id)', '--auth-url', ref.authUrl, '--base-url', base,
        '--client-id', ref.clientId, '--realm', ref.realm, '--time-scale', '0.05', '--report', dir],
      { env: { PIS_CLIENT_SECRET: ref.clientSecret }, timeoutMs: 300_000 });
      const out = cli.stdout + cli.stderr;
      assert.ok(readdirSync(dir).length >= 4, `${readdirSync(dir).join(', ')}\n${out}`);
      assert.match(out, /data\.banks\.by-id/, 'the checks ran on the API at that URL');
      const files = readdirSync(dir).filter(f => readFileSync(join(dir, f), 'utf8').includes(PW));
      assert.deepEqual(files, [], `report files with the password (${base})`);
      assert.ok(!out.includes(PW), out);
    }
    const bad = await runCli(['run', '--suites', 'token', '--auth-url', `http://alice:${PW}@[bad`, '--client-id', 'c'],
      { env: { PIS_CLIENT_SECRET: 'x' }, timeoutMs: 60_000 });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /is not a URL/);
    assert.ok(!(bad.stdout + bad.stderr).includes(PW), bad.stderr);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await ref.close();
  }
});
