// Redaction: by value and by name over what quotes the target, by structure over
// a check result, never over the words the harness wrote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, REDACTED, shortSecretWarning } from '../../harness/report/redact.ts';
import type { CheckResult, DeliveryEvidence, HttpEvidence, MeasurementEvidence, NoteEvidence } from '../../harness/results/model.ts';
import { curlLine } from '../../harness/http/exchange.ts';

test('known secret values are replaced anywhere, also URL-encoded', () => {
  const r = new Redactor().add('s3cr3t/value+x', 'PIS_CLIENT_SECRET');
  const out = r.value({ note: 'secret is s3cr3t/value+x', form: 'a=1&x=s3cr3t%2Fvalue%2Bx', list: ['s3cr3t/value+x'] });
  assert.equal(JSON.stringify(out).includes('s3cr3t'), false);
  assert.equal(out.note, `secret is ${REDACTED}`);
});

test('secret-named fields and headers are replaced whatever their value', () => {
  const out = new Redactor().value({ headers: { Authorization: 'Bearer abc.def', 'api-key': 'k-1', accept: 'x' },
    body: { access_token: 'tok', refresh_token: 'r', expires_in: 3600 } });
  assert.deepEqual(out, { headers: { Authorization: `Bearer ${REDACTED}`, 'api-key': REDACTED, accept: 'x' },
    body: { access_token: REDACTED, refresh_token: REDACTED, expires_in: 3600 } });
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

test('a check result: evidence and what it saw are redacted; the words the harness wrote never, whatever the secret spells', () => {
  const r = new Redactor().add('failed', 'PIS_ACCESS_TOKEN').add('must', 'PIS_REFRESH_TOKEN').add('http', 'PIS_CLIENT_SECRET')
    .add('registered', 'PIS_WEBHOOK_API_KEY');
  const c: CheckResult = {
    id: 'token.issue.must-failed', suite: 'token', title: 'must not have failed', spec: '2.1', level: 'must', status: 'failed', skipKind: undefined,
    message: 'the check failed: must be http', expected: 'must', seen: 'failed and must', quote: 'must', requirements: ['R2.1-must'], remedy: 'give http',
    evidence: [
      { kind: 'http', label: 'must',
        request: { method: 'POST', url: 'http://h/failed', headers: { authorization: 'Bearer failed', accept: 'must' }, body: { token: 'failed' } },
        response: { status: 200, headers: {}, body: { access_token: 'x-y', t: 'must' } }, startedAt: '', durationMs: 1 },
      { kind: 'note', text: 'token failed' },
      { kind: 'measurement', name: 'must', expected: 'must', seen: 'failed' },
      { kind: 'delivery', attempts: [{ seq: 1, checkoutId: 'failed', arrivedMs: 0, headers: { 'api-key': 'registered' }, body: '{"x":"must"}',
        probe: 'ok', answer: 200, apiKeyCheck: { verdict: 'registered', length: 10, sha256: 'ab' } }] },
    ],
    durationMs: 1,
  };
  const out = r.result(c);
  const { evidence, seen, ...words } = out;
  const { evidence: _e, seen: _s, ...written } = c;
  assert.deepEqual(words, written);
  assert.equal(seen, `${REDACTED} and ${REDACTED}`);
  const [http, note, measurement, delivery] = evidence as [HttpEvidence, NoteEvidence, MeasurementEvidence, DeliveryEvidence];
  assert.deepEqual([http.kind, http.label, http.request.url, http.request.headers, http.request.body, http.response?.body],
    ['http', 'must', `${REDACTED}://h/${REDACTED}`, { authorization: `Bearer ${REDACTED}`, accept: REDACTED }, { token: REDACTED },
      { access_token: REDACTED, t: REDACTED }]);
  assert.deepEqual([note.kind, note.text], ['note', `token ${REDACTED}`]);
  assert.deepEqual([measurement.name, measurement.expected, measurement.seen], ['must', 'must', REDACTED]);
  const a = delivery.attempts[0]!;
  assert.deepEqual([delivery.kind, a.checkoutId, a.headers['api-key'], a.body, a.probe, a.apiKeyCheck],
    ['delivery', REDACTED, REDACTED, `{"x":"${REDACTED}"}`, 'ok', { verdict: 'registered', length: 10, sha256: 'ab' }]);
});

test('secrets shorter than 8 characters are flagged for a warning, still hidden by value in evidence', () => {
  const r = new Redactor().add('fail', 'PIS_CLIENT_SECRET').add('a-much-longer-secret', 'PIS_WEBHOOK_API_KEY');
  assert.deepEqual([...r.shortSecrets], ['PIS_CLIENT_SECRET']);
  assert.match(shortSecretWarning('PIS_CLIENT_SECRET'), /^warning: the client secret is shorter than 8 characters/);
  assert.equal(r.text('fail'), REDACTED);
});

test('among hundreds of issued tokens, each is found in any spelling, also one registered after the first use', () => {
  const r = new Redactor();
  const tokens = Array.from({ length: 300 }, (_, i) => `tok/${i}+${'x'.repeat(i % 7)}-${i * 7919}`);
  for (const t of tokens) r.add(t, 'PIS_ACCESS_TOKEN');
  const t = tokens[150]!;
  assert.equal(r.text('nothing secret here'), 'nothing secret here');
  assert.equal(r.text(`a ${t} b`), `a ${REDACTED} b`);
  assert.equal(r.text(`q=${encodeURIComponent(t)}`), `q=${REDACTED}`);
  assert.ok(!r.text(Buffer.from(`id:${t}`).toString('base64')).includes(Buffer.from(t).toString('base64').slice(4, 12)));
  // A secret that holds another: the longer one registered first goes whole, the shorter one nowhere half-shown.
  const nested = new Redactor().add('outer-secret-inner-part', 'PIS_CLIENT_SECRET');
  assert.equal(nested.text('see outer-secret-inner-part'), `see ${REDACTED}`);
  nested.add('inner-part', 'PIS_ACCESS_TOKEN');
  assert.equal(nested.text('x inner-part y'), `x ${REDACTED} y`);
  assert.equal(nested.text('x inner-part y outer-secret-inner-part'), `x ${REDACTED} y ${REDACTED}`);
});

test('an exchange redacted as it was made is kept as it is by the check\'s result, and redacted again once a secret was registered after it', () => {
  const r = new Redactor().add('client-secret-1', 'PIS_CLIENT_SECRET');
  const http = (body: unknown): HttpEvidence => ({ kind: 'http', startedAt: '2026-01-01T00:00:00Z', durationMs: 1,
    request: { method: 'GET', url: 'http://h/api', headers: {} }, response: { status: 200, headers: {}, body } });
  const first = r.evidence(http({ token: 'token-issued-later-0123', echo: 'client-secret-1' }));
  assert.equal(JSON.stringify(first).includes('client-secret-1'), false);
  const result = (e: HttpEvidence): CheckResult => ({ id: 'token.y.z', suite: 'token', title: 't', level: 'must', spec: '1', status: 'passed',
    durationMs: 1, evidence: [e] });
  // No secret since: the very item comes back (not copied, not scanned again).
  assert.equal(r.result(result(first as HttpEvidence)).evidence[0], first);
  // A token registered after the exchange that quoted it: the result redacts the item again, and hides it.
  r.add('token-issued-later-0123', 'PIS_ACCESS_TOKEN');
  const again = r.result(result(first as HttpEvidence)).evidence[0]!;
  assert.notEqual(again, first);
  assert.equal(JSON.stringify(again).includes('token-issued-later-0123'), false, JSON.stringify(again));
  // An item the redactor did not make (a copy, or one read back from JSON) is always redacted.
  const copy = JSON.parse(JSON.stringify(http({ t: 'token-issued-later-0123' }))) as HttpEvidence;
  assert.equal(JSON.stringify(r.evidence(copy)).includes('token-issued-later-0123'), false);
});
