// --banks all|N|ID,ID and its shorthand --bank-id, as a flag and as a config
// file key; a bad value is a harness error that names the accepted forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromFlags, resolveTarget } from '../../harness/config/config.ts';
import { loadConfigFile } from '../../harness/config/file.ts';
import { parseBanks } from '../../harness/config/banks.ts';

const BASE = { authUrl: 'http://a', baseUrl: 'http://a/api', clientId: 'c', clientSecret: 's' };

function withFile(text: string, fn: (file: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'pis-banks-'));
  try { const f = join(dir, 'target.yaml'); writeFileSync(f, text); fn(f); } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('--banks takes all, a number or a list of ids; --bank-id is one id', () => {
  assert.deepEqual(parseBanks('all', '--banks'), { kind: 'all' });
  assert.deepEqual(parseBanks(' ALL ', '--banks'), { kind: 'all' });
  assert.deepEqual(parseBanks('3', '--banks'), { kind: 'max', n: 3 });
  assert.deepEqual(parseBanks('dnb-no, nordea-fi,dnb-no', '--banks'), { kind: 'ids', ids: ['dnb-no', 'nordea-fi'] });
  assert.deepEqual(resolveTarget(fromFlags({ banks: '5' }), BASE).banks, { kind: 'max', n: 5 });
  assert.deepEqual(resolveTarget(fromFlags({ 'bank-id': 'dnb-no' }), BASE).banks, { kind: 'ids', ids: ['dnb-no'] });
  assert.equal(resolveTarget(BASE).banks, undefined, 'no choice: the suites use the default cap');
});

test('a bad --banks value, or both flags, is a PIS_BAD_FLAG error naming the accepted forms', () => {
  for (const v of ['0', ',', ' '])
    assert.throws(() => fromFlags({ banks: v }), (e: Error & { code?: string }) => e.code === 'PIS_BAD_FLAG' && /all, a number of banks/.test(e.message), v);
  assert.throws(() => fromFlags({ banks: 'all', 'bank-id': 'dnb-no' }),
    (e: Error & { code?: string }) => e.code === 'PIS_BAD_FLAG' && /not both/.test(e.message));
});

test('the config file takes banks as all, a number, a list or a comma string, and bank-id as one id; flags win', () => {
  withFile('banks: [dnb-no, nordea-fi]\n', f => assert.deepEqual(loadConfigFile(f).config.banks, { kind: 'ids', ids: ['dnb-no', 'nordea-fi'] }));
  withFile('banks: 7\n', f => assert.deepEqual(loadConfigFile(f).config.banks, { kind: 'max', n: 7 }));
  withFile('banks: all\n', f => assert.deepEqual(loadConfigFile(f).config.banks, { kind: 'all' }));
  withFile('bank-id: dnb-no\n', f => {
    assert.deepEqual(loadConfigFile(f).config.banks, { kind: 'ids', ids: ['dnb-no'] });
    assert.deepEqual(resolveTarget(fromFlags({ banks: 'all' }), BASE, loadConfigFile(f).config).banks, { kind: 'all' });
  });
  withFile('banks: 0\n', f => assert.throws(() => loadConfigFile(f), (e: Error & { code?: string }) => e.code === 'PIS_BAD_CONFIG'));
  withFile('banks: all\nbank-id: dnb-no\n', f => assert.throws(() => loadConfigFile(f), /not both/));
});
