// The target config of `run` (docs/cli.md): flags win over env, env
// over the YAML file; paths and headers of docs/profile.md are overridable one by one;
// secrets reach the workers through the environment only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromEnv, fromFlags, resolveTarget } from '../../harness/config/config.ts';
import { loadConfigFile } from '../../harness/config/file.ts';
import { loadConsentScript } from '../../harness/config/consent-script.ts';
import { joinTarget, reportTarget, splitTarget } from '../../harness/config/env.ts';
import { DEFAULT_PATHS } from '../../harness/config/profile.ts';

function withFile(text: string, fn: (file: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'pis-cfg-'));
  try { const f = join(dir, 'target.yaml'); writeFileSync(f, text); fn(f); } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('flags win over env, env over the file; defaults fill the rest', () => {
  withFile(`base-url: http://file/api\nauthUrl: http://file\nclient-id: file-client\nrealm: file-realm\nmax-wait: 5\n`, file => {
    const cfg = resolveTarget(
      fromFlags({ 'base-url': 'http://flag/api' }),
      fromEnv({ PIS_BASE_URL: 'http://env/api', PIS_AUTH_URL: 'http://env', PIS_CLIENT_SECRET: 'env-secret' }),
      loadConfigFile(file).config);
    assert.equal(cfg.baseUrl, 'http://flag/api');
    assert.equal(cfg.authUrl, 'http://env');
    assert.equal(cfg.clientSecret, 'env-secret');
    assert.equal(cfg.clientId, 'file-client');
    assert.equal(cfg.realm, 'file-realm');
    assert.equal(cfg.maxWaitS, 5);
    assert.equal(cfg.timeScale, 1);
    assert.equal(cfg.consentDriver, 'follow');
  });
});

test('paths and headers of docs/profile.md are overridden one by one', () => {
  withFile(`paths:\n  banks: /v3/bank-list\nheaders:\n  session: x-consent-session\n`, file => {
    const cfg = resolveTarget({ authUrl: 'http://a', baseUrl: 'http://a/api', clientId: 'c', clientSecret: 's' }, loadConfigFile(file).config);
    assert.equal(cfg.paths.banks, '/v3/bank-list');
    assert.equal(cfg.paths.accounts, DEFAULT_PATHS.accounts);
    assert.equal(cfg.headers.session, 'x-consent-session');
    assert.equal(cfg.headers.device, 'x-device-id');
  });
});

test('the browser driver needs a script; the script file is checked step by step', () => {
  withFile(`- click: '#approve'\n- fill: '#user'\n`, file => {
    assert.throws(() => loadConsentScript(file), /step 2 must be one of/);
  });
  withFile(`- goto: '{href}?interactive=1'\n- click: '#approve'\n`, file => {
    const flags = fromFlags({ 'consent-script': file });
    assert.equal(flags.consentDriver, 'browser');
    assert.equal(flags.consentScript?.length, 2);
  });
  assert.throws(() => resolveTarget({ authUrl: 'http://a', baseUrl: 'http://a', clientId: 'c', clientSecret: 's', consentDriver: 'browser' }),
    /--consent-script FILE/);
});

test('secrets travel in their own variables, never in the target of the run context or the report target', () => {
  const cfg = resolveTarget({ authUrl: 'http://a', baseUrl: 'http://a/api', clientId: 'c', clientSecret: 'the-secret', webhookApiKey: 'the-key' });
  const { open, env } = splitTarget(cfg);
  assert.equal(env.PIS_CLIENT_SECRET, 'the-secret');
  assert.equal(env.PIS_WEBHOOK_API_KEY, 'the-key');
  assert.doesNotMatch(JSON.stringify(open), /the-secret|the-key/);
  assert.doesNotMatch(JSON.stringify(reportTarget(cfg)), /the-secret|the-key/);
  assert.deepEqual(JSON.parse(JSON.stringify(joinTarget(open, env))), JSON.parse(JSON.stringify(cfg)));
});

test('a secret in the config file is PIS_BAD_CONFIG naming its variable (before: accepted silently)', () => {
  for (const [text, key, variable] of [['client-secret: s3cr3t-value\n', 'client-secret', 'PIS_CLIENT_SECRET'],
    ['webhookApiKey: k3y-value\n', 'webhookApiKey', 'PIS_WEBHOOK_API_KEY']]) {
    withFile(text, file => {
      assert.throws(() => loadConfigFile(file), (e: Error & { code?: string }) => e.code === 'PIS_BAD_CONFIG' &&
        e.message.includes(`holds the secret '${key}', which does not go in a file: remove it and set ${variable} in the environment`) &&
        !/s3cr3t|k3y-value/.test(e.message));
    });
  }
  withFile('client-secret:\n', file => assert.doesNotThrow(() => loadConfigFile(file), 'a key with no value is as if absent'));
});
