// Cache-Control is read as directives (RFC 9111 5.2): no-store among others
// passes, no-store missing or only inside another token or a quoted argument fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheDirectives, forbidsStore } from '../../../suites/checks/token/cache-control.ts';

test('no-store beside other directives, in any letter case, from joined header lines', () => {
  for (const v of ['no-store', 'no-store, no-cache', 'No-Store', 'private,no-store', 'no-cache="set-cookie, x-a", no-store',
      'max-age=0, no-store, must-revalidate'])
    assert.ok(forbidsStore(v), v);
});

test('no no-store directive: absent, no-cache alone, a look-alike, inside a quoted argument', () => {
  for (const v of [undefined, '', 'no-cache', 'private, max-age=0', 'x-no-store', 'no-store-please', 'no-cache="no-store"', 'private="a, no-store"'])
    assert.ok(!forbidsStore(v), String(v));
});

test('directive names come back lower-cased without their arguments', () => {
  assert.deepEqual([...cacheDirectives('Max-Age=0, NO-STORE, no-cache="a,b"')], ['max-age', 'no-store', 'no-cache']);
});
