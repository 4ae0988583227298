// The target description: places (JSON Pointers with * and filters), the
// merge over the profile's description, the schema's refusals, and
// `run --describe`, whose YAML a config file takes back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describeTarget, PROFILE_DESCRIPTION, readDescription, setAt, valuesAt } from '../../harness/config/description.ts';
import { runCli } from '../helpers/cli.ts';
import { resolveTarget } from '../../harness/config/config.ts';

const dir = mkdtempSync(join(tmpdir(), 'pis-description-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

test('a place finds values by JSON Pointer; * visits every element, *[k=v] and *[k!=v] filter them', () => {
  const body = { links: [{ rel: 'authorize', href: 'https://a' }, { rel: 'consent', href: 'https://c' }, { href: 'https://x' }], 'a/b': { '~': 1 } };
  assert.deepEqual(valuesAt(body, '/links/*/href'), ['https://a', 'https://c', 'https://x']);
  assert.deepEqual(valuesAt(body, '/links/*[rel=consent]/href'), ['https://c']);
  assert.deepEqual(valuesAt(body, '/links/*[rel!=authorize]/href'), ['https://c', 'https://x']);
  assert.deepEqual(valuesAt(body, '/links/1/href'), ['https://c']);
  assert.deepEqual(valuesAt(body, '/a~1b/~0'), [1]);
  assert.deepEqual(valuesAt(body, '/links/7/href'), []);
  assert.deepEqual(valuesAt(body, '/missing/*/x'), []);
  assert.deepEqual(valuesAt('text', '/links'), []);
});

test('setAt makes the objects and arrays on the way', () => {
  const out: Record<string, unknown> = {};
  setAt(out, '/amount/value', '10.00');
  setAt(out, '/parties/*/iban', 'NO93');
  setAt(out, '/currency', 'NOK');
  assert.deepEqual(out, { amount: { value: '10.00' }, parties: [{ iban: 'NO93' }], currency: 'NOK' });
});

test('a description replaces the profile key by key; fields and products merge name by name', () => {
  const d = describeTarget({ payment: { fields: { instrumentedAmount: '/amount' } }, products: { 'dnb-no': ['sepa-credit'] } });
  assert.equal(d.payment.fields.instrumentedAmount, '/amount');
  assert.equal(d.payment.fields.currency, '/currency');
  assert.equal(d.payment.id, PROFILE_DESCRIPTION.payment.id);
  assert.deepEqual(d.products, { 'dnb-no': ['sepa-credit'] });
  assert.equal(PROFILE_DESCRIPTION.payment.fields.instrumentedAmount, '/instrumentedAmount', 'the profile itself is not changed');
});

test('records: a bank named keeps its own fields beside the profile\'s \'*\', which lists the five fields of spec 2.6\'s rule', () => {
  assert.deepEqual(PROFILE_DESCRIPTION.records, { '*': ['ownerName', 'displayName', 'counterpartyAccount', 'counterpartyName', 'counterpartyAgent'] });
  const d = describeTarget({ records: { 'dnb-no': ['ownerName'], 'nordea-fi': [] } });
  assert.deepEqual(d.records['dnb-no'], ['ownerName']);
  assert.deepEqual(d.records['nordea-fi'], []);
  assert.deepEqual(d.records['*'], PROFILE_DESCRIPTION.records['*']);
});

test('the description\'s session lifetime is the target\'s, unless --session-lifetime gives one', () => {
  const base = { authUrl: 'http://a.example', clientId: 'c', clientSecret: 's' };
  const description = describeTarget({ lifetimes: { session: 900 } });
  assert.equal(resolveTarget({ ...base, description }).sessionLifetimeS, 900);
  assert.equal(resolveTarget({ sessionLifetimeS: 60 }, { ...base, description }).sessionLifetimeS, 60);
  assert.equal(resolveTarget(base).sessionLifetimeS, undefined);
});

test('a description against its schema: unknown keys, places that are no pointer, unknown products and fields are refused naming the key', () => {
  const bad: [unknown, RegExp][] = [
    [{ consent: { link: '/x' } }, /'description\.consent' has an unknown key 'link'/],
    [{ consent: { url: 'links.href' } }, /'description\.consent\.url' must be a JSON Pointer/],
    [{ products: { 'dnb-no': ['faster-payments'] } }, /'description\.products\.dnb-no\.0'/],
    [{ payment: { fields: { amount: '/a' } } }, /description\.payment\.fields/],
    [{ records: { 'dnb-no': ['accountName'] } }, /'description\.records\.dnb-no\.0'/],
  ];
  for (const [value, message] of bad) assert.throws(() => readDescription(value, 'c.yaml', 'description'), (e: Error & { code?: string }) =>
    e.code === 'PIS_BAD_CONFIG' && message.test(e.message) && /contracts\/target-description\.yaml/.test(e.message), JSON.stringify(value));
});

test('a description in a file of its own is read relative to the config file', () => {
  writeFileSync(join(dir, 'd.yaml'), 'confirm-funds:\n  available: /ok\n');
  assert.deepEqual(readDescription('d.yaml', join(dir, 'config.yaml'), 'description'), { 'confirm-funds': { available: '/ok' } });
});

test('run --describe prints the profile by default, the config\'s description over it, and its YAML is taken back', async () => {
  const plain = await runCli(['run', '--describe']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(parse(plain.stdout), { description: PROFILE_DESCRIPTION });
  const given = await runCli(['run', '--describe', '--config', 'examples/descriptions/renamed-fields.yaml']);
  assert.equal(given.code, 0, given.stderr);
  const printed = parse(given.stdout) as { description: typeof PROFILE_DESCRIPTION };
  assert.equal(printed.description.consent.url, '/actions/*/url');
  assert.equal(printed.description.payment.fields.currency, '/currency');
  writeFileSync(join(dir, 'back.yaml'), given.stdout);
  const back = await runCli(['run', '--describe', '--config', join(dir, 'back.yaml')]);
  assert.equal(back.stdout, given.stdout);
});
