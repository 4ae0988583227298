// harness/runner/webhook.ts: `run` drives the webhook checkouts itself, and
// only when a webhook check is selected the way Playwright selects it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReference } from '../../harness/reference/index.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import { selectsWebhookCheck } from '../../harness/cli/selection.ts';
import { selectChecks } from '../../harness/cli/selection.ts';
import { CATALOG } from '../../suites/catalog/index.ts';
import { runServedHere } from '../helpers/cli.ts';

/** The run's one selection (harness/cli/selection.ts) of the catalog. */
const choice = (suites: string[], grep?: string) =>
  selectChecks(CATALOG, { suites, profile: true, apiVersion: LATEST_API_VERSION, ...(grep === undefined ? {} : { grep }) }).checks;

test('a webhook check is selected as Playwright selects its test: file, id and title, case-insensitive, /re/flags', () => {
  assert.equal(selectsWebhookCheck(choice(['token', 'webhook'])), true);
  assert.equal(selectsWebhookCheck(choice(['token', 'session'])), false, 'no webhook suite');
  assert.equal(selectsWebhookCheck(choice(['webhook'], 'webhook\\.backoff\\.min-delay')), true);
  assert.equal(selectsWebhookCheck(choice(['webhook'], 'WEBHOOK.BACKOFF')), true, 'Playwright matches case-insensitively');
  assert.equal(selectsWebhookCheck(choice(['webhook'], 'webhook\\.spec')), true, 'the file is part of the title path');
  assert.equal(selectsWebhookCheck(choice(['webhook'], 'every retry comes at least')), true, 'the title is matched too');
  assert.equal(selectsWebhookCheck(choice(['webhook'], '/WEBHOOK\\.BACKOFF/')), false, 'a /re/ pattern keeps its case');
  assert.equal(selectsWebhookCheck(choice(['webhook'], '^webhook\\.')), false, 'the title path begins with the untitled root and project');
  assert.equal(selectsWebhookCheck(choice(['token', 'webhook'], 'token\\.issue\\.')), false);
});

// The reference runs in this process, so its checkout events are seen here; two runs select one token check
// only. A third names a control API that refuses every checkout: the drive cannot be made, and the first
// webhook check says why, the others are not run.
test('no checkout without a selected webhook check; a drive that cannot be made fails the first webhook check', async () => {
  const ref = await startReference({ timeScale: 0.1 });
  const refusing = createServer((req, res) => {
    if (req.url === '/health') res.writeHead(200, { 'content-type': 'application/json' }).end('{"timeScale":0.1}');
    else res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"checkouts are down"}');
  });
  await new Promise<void>(r => refusing.listen(0, '127.0.0.1', r));
  const dirs: string[] = [];
  try {
    const target = (control: string) => ['--auth-url', ref.authUrl, '--realm', ref.realm, '--client-id', ref.clientId, '--base-url', ref.baseUrl,
      '--control-url', control, '--time-scale', '0.1', '--workers', '1'];
    const run = (args: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'pis-no-drive-'));
      dirs.push(dir);
      const env = { PIS_CLIENT_SECRET: ref.clientSecret, PIS_WEBHOOK_API_KEY: 'no-drive-key-0123' };
      return runServedHere(['run', '--report', dir, ...args], { env });
    };
    const one = ['--grep', 'token\\.issue\\.access-token'];
    const [token, grepped, refused] = await Promise.all([
      run(['--suites', 'token', ...one, ...target(ref.controlUrl)]),
      run(['--suites', 'token,webhook', ...one, ...target(ref.controlUrl)]),
      run(['--suites', 'webhook', '--grep', 'webhook\\.body\\.(valid|method-post)', ...target(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}`)]),
    ]);
    for (const r of [token, grepped]) {
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /^ok {3}token\.issue\.access-token /m);
      assert.doesNotMatch(r.stdout, /Driving the webhook checkouts/);
    }
    assert.deepEqual(ref.events(), [], 'no checkout was created');
    assert.equal(refused.code, 1, `${refused.stdout}\n${refused.stderr}`);
    assert.match(refused.stdout,
      /^FAIL webhook\.body\.valid .*\n.*the webhook probes could not be run: The control API at \S+ refused the allowed checkout '[\w-]+' with 503/m);
    assert.match(refused.stdout, /^skip webhook\.body\.method-post .*\n.*not checked: the webhook probes could not be run/m);
  } finally {
    refusing.close();
    await ref.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
