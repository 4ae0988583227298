// A target that lists no account at any bank, or no transaction on any
// account, gives the record checks nothing to judge: they are not run (with
// the reason), never passed, and the payment checks say why they could not
// pay. The same runs show --banks: all, and a sample of 3 of the 8 banks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunResults } from '../../harness/results/model.ts';
import { jsonAnswer, runThroughProxy, type ProxyMutation } from '../helpers/proxy.ts';

const byId = (r: RunResults, id: string) => r.checks.find(c => c.id === id)!;

function assertNotRun(r: RunResults, ids: string[], why: RegExp, out: string): void {
  for (const id of ids) {
    const c = byId(r, id);
    assert.equal(c?.status, 'skipped', `${id}: ${c?.status} ${c?.message}\n${out}`);
    assert.equal(c.skipKind, 'not-run', id);
    assert.match(c.message ?? '', why, id);
  }
}

// Only lists the reference served are emptied: a refusal (an unknown account) stays a refusal.
const noAccounts: ProxyMutation = {
  answer: (x, a) => { if (x.method === 'GET' && x.path === '/api/accounts' && a.status === 200) Object.assign(a, jsonAnswer([])); },
};
const noTransactions: ProxyMutation = {
  answer: (x, a) => { if (/^\/api\/accounts\/[^/]+\/transactions$/.test(x.path) && a.status === 200) Object.assign(a, jsonAnswer([])); },
};

test('no account at any bank: the account, transaction and payment checks are not run, and none passes', async () => {
  const { cli, results } = await runThroughProxy([noAccounts], ['--suites', 'data,payments', '--banks', 'all']);
  const out = cli.stdout + cli.stderr;
  assert.ok(results, out);
  assert.deepEqual(results.checks.filter(c => c.status === 'failed').map(c => c.id), [], out);
  assertNotRun(results, ['data.accounts.list', 'data.accounts.names-are-strings', 'data.accounts.contract'], /the target listed no accounts at any bank/, out);
  assertNotRun(results, ['data.transactions.list', 'data.transactions.counterparty-strings', 'data.transactions.bic-length'], /no accounts at any bank/, out);
  assertNotRun(results, ['payments.domestic.initiate', 'payments.sepa.initiate', 'payments.status.by-id', 'payments.confirm-funds.answers'],
    /no accounts at any bank/, out);
  const passed = results.checks.filter(c => c.status === 'passed' && /^(data\.(accounts|transactions)|payments)\./.test(c.id)).map(c => c.id);
  // GET /accounts without x-psu-ip-address was answered (with []), which is what that check judges;
  // transactions of an unknown account need no account to be refused.
  assert.deepEqual(passed, ['data.accounts.psu-ip-optional', 'data.transactions.unknown-account'], out);
  assert.match(byId(results, 'data.banks.list').message ?? '', /all 8 listed banks/);
  // Not a silent pass: the run is Incomplete, exit 1, and the verdict line says why once.
  assert.equal(results.summary.verdict, 'incomplete', out);
  assert.equal(cli.code, 1, out);
  assert.match(cli.stdout, /Not run: the target listed no accounts at any bank under test: give the test user an account/);
});

test('no transaction on any account: the transaction checks are not run; --banks 3 samples 3 of the 8 banks', async () => {
  const { cli, results } = await runThroughProxy([noTransactions], ['--suites', 'data', '--banks', '3']);
  const out = cli.stdout + cli.stderr;
  assert.ok(results, out);
  assert.deepEqual(results.checks.filter(c => c.status === 'failed').map(c => c.id), [], out);
  assertNotRun(results, ['data.transactions.list', 'data.transactions.counterparty-strings', 'data.transactions.bic-length', 'data.transactions.contract'],
    /the target listed no transactions on any account/, out);
  assert.equal(byId(results, 'data.accounts.list').status, 'passed', out);
  assert.match(byId(results, 'data.banks.list').message ?? '', /a sample of 3 of 8 listed banks/);
  assert.match(byId(results, 'data.accounts.list').message ?? '', /^accounts per bank: [\w-]+ 2, [\w-]+ 2, [\w-]+ 2; held at 3 of 3 banks$/);
  assert.equal(results.summary.verdict, 'incomplete', out);
  assert.match(cli.stdout, /Not run: the target listed no transactions on any account/);
});
