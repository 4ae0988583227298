// The static registry of checks: importable without a target or Playwright
// running, one entry per id, every id under a fixed prefix of its suite, every
// check with a title, a spec section, the sentence it enforces and a level.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG, SUITE_CHECKS } from '../../suites/catalog/index.ts';
import { WEBHOOK_CHECKS } from '../../harness/sink/checks/index.ts';
import { RUN_CONTEXT_ENV } from '../../suites/support/context.ts';

// The fixed id prefixes of the check ids (docs/checks.md), by suite.
const PREFIXES: Record<string, string[]> = {
  token: ['issue', 'refresh', 'errors', 'expiry', 'use'],
  session: ['lifecycle', 'consent-link'],
  data: ['banks', 'accounts', 'transactions'],
  payments: ['domestic', 'sepa', 'scheduled', 'status', 'confirm-funds'],
  webhook: ['body', 'auth', 'states', 'retry', 'timeout', 'backoff', 'order', 'parallel', 'duplicates'],
  receiver: ['accepts', 'auth', 'latency', 'idempotency', 'concurrency', 'robustness'],
};

test('the catalog loads without a target and lists every check once, under its suite and a fixed prefix', () => {
  assert.equal(process.env[RUN_CONTEXT_ENV], undefined);
  const ids = CATALOG.map(c => c.id);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids.filter((x, i) => ids.indexOf(x) !== i).join(', ')}`);
  for (const [suite, checks] of Object.entries(SUITE_CHECKS)) {
    assert.ok(checks.length > 0, suite);
    for (const c of checks) {
      const [s, area] = c.id.split('.');
      assert.equal(s, suite, c.id);
      assert.equal(c.suite, suite, c.id);
      assert.ok(PREFIXES[suite]!.includes(area!), `${c.id}: ${area} is not a prefix of ${suite}`);
    }
  }
});

test('every check has a title, a spec section, its quote, a level and a requirements list', () => {
  for (const c of CATALOG) {
    assert.ok(c.title.trim(), c.id);
    assert.match(c.spec, /^(\d+(\.\d+)?|profile)$/, c.id);
    assert.ok(c.quote.trim().length > 10, `${c.id} has no quote`);
    assert.ok(['must', 'should', 'profile'].includes(c.level), c.id);
    assert.ok(Array.isArray(c.requirements), c.id);
  }
});

test('the webhook suite runs the webhook checks of the analysis in their registered order', () => {
  assert.deepEqual(SUITE_CHECKS.webhook.map(c => c.id), WEBHOOK_CHECKS.map(c => c.id));
});
