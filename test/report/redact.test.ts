import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, REDACTED } from '../../harness/report/redact.ts';
import { curlLine } from '../../harness/http/exchange.ts';

test('known secret values are replaced anywhere, also URL-encoded', () => {
  const r = new Redactor().add('s3cr3t/value+x', 'PIS_CLIENT_SECRET');
  const out = r.value({ note: 'secret is s3cr3t/value+x', form: 'a=1&x=s3cr3t%2Fvalue%2Bx', list: ['s3cr3t/value+x'] });
  assert.equal(JSON.stringify(out).includes('s3cr3t'), false);
  assert.equal(out.note, `secret is ${REDACTED}`);
});

test('secret-named fields and headers are replaced whatever their value', () => {
  const out = new Redactor().value({ headers: { Authorization: 'Bearer abc.def', 'api-key': 'k-1', accept: 'x' }, body: { access_token: 'tok', refresh_token: 'r', expires_in: 3600 } });
  assert.deepEqual(out, { headers: { Authorization: `Bearer ${REDACTED}`, 'api-key': REDACTED, accept: 'x' }, body: { access_token: REDACTED, refresh_token: REDACTED, expires_in: 3600 } });
});

test('bearer tokens and secret form fields inside text are replaced', () => {
  const t = new Redactor().text('Authorization: Bearer eyJhbGciOi.abc grant_type=refresh_token&refresh_token=zzz&client_secret=qq');
  assert.equal(t, `Authorization: Bearer ${REDACTED} grant_type=refresh_token&refresh_token=${REDACTED}&client_secret=${REDACTED}`);
});

test('curl lines name secrets by placeholder and survive redaction', () => {
  const r = new Redactor().add('very-secret', 'PIS_CLIENT_SECRET');
  const line = curlLine('POST', 'http://h/token', { 'content-type': 'application/x-www-form-urlencoded' }, 'client_id=a&client_secret=very-secret', r);
  assert.match(line, /client_secret=\$PIS_CLIENT_SECRET/);
  assert.equal(r.text(line), line);
  assert.equal(line.includes('very-secret'), false);
});
