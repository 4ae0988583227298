// How the target reaches Playwright's processes: every option the table marks
// secret travels in its own variable, never in the open part the run context
// carries, and is named in SECRET_VARIABLES, the list Playwright's reporter
// hides by; run's own redactor hides the same values under the same names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../harness/report/redact.ts';
import { resolveTarget } from '../../harness/config/config.ts';
import { joinTarget, redactTargetSecrets, SECRET_VARIABLES, splitTarget } from '../../harness/config/env.ts';
import { TARGET_OPTIONS } from '../../harness/config/options.ts';

const secrets = TARGET_OPTIONS.filter(o => o.secret);
const valueOf = (name: string) => `secret-of-${name}-0123456789`;
const cfg = resolveTarget({
  authUrl: 'http://127.0.0.1:9/auth', realm: 'r', clientId: 'c', baseUrl: 'http://127.0.0.1:9/api',
  ...Object.fromEntries(secrets.map(o => [o.field, valueOf(o.name)])),
});

test('every secret option travels in its own variable, is listed in SECRET_VARIABLES and comes back whole', () => {
  assert.ok(secrets.length >= 2, 'the table marks the client secret and the webhook api-key secret');
  const { open, env } = splitTarget(cfg);
  for (const o of secrets) {
    assert.ok(!JSON.stringify(open).includes(valueOf(o.name)), `${o.name} is not in the open part`);
    assert.equal(env[o.env!], valueOf(o.name));
    assert.ok(SECRET_VARIABLES.includes(o.env!), `${o.env} is listed`);
  }
  assert.deepEqual(JSON.parse(JSON.stringify(joinTarget(JSON.parse(JSON.stringify(open)) as Record<string, unknown>, env))),
    JSON.parse(JSON.stringify(cfg)), 'the target comes back as it left (fields without a value aside)');
});

test('run and the reporter hide every secret option under its variable\'s name', () => {
  const text = secrets.map(o => `${o.name}=${valueOf(o.name)}`).join(' ');
  const { env } = splitTarget(cfg);
  // As Playwright's reporter does with the variables run names to it.
  const reporter = new Redactor();
  for (const name of SECRET_VARIABLES) reporter.add(env[name], name);
  for (const r of [redactTargetSecrets(new Redactor(), cfg), reporter]) {
    const hidden = r.text(text);
    for (const o of secrets) {
      assert.ok(!hidden.includes(valueOf(o.name)), `${o.name} hidden: ${hidden}`);
      assert.ok(r.placeholders(text).includes(`$${o.env}`), `${o.name} shown as $${o.env} in a curl line`);
    }
  }
});
