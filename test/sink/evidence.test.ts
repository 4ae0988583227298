// A delivery attempt's api-key in the report: the right key and a missing one by
// name, a wrong one by its length and a short hash, never by its value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderEvidence } from '../../harness/report/html/evidence.ts';
import { judgeKey } from '../../harness/sink/recorder.ts';

test('the attempts table tells a wrong api-key from the right one without showing either', () => {
  const right = 'the-registered-key-1';
  const keys = [judgeKey(right, [right]), judgeKey(undefined, [right]), judgeKey('a-wrong-key', [right])];
  const html = renderEvidence({ kind: 'delivery', attempts: keys.map((k, i) => ({
    seq: i + 1, checkoutId: 'c', arrivedMs: i, headers: { 'api-key': '[redacted]' }, body: '{}', probe: 'ok', answer: 200, apiKeyCheck: k })) });
  assert.match(html, /<td>registered<\/td>/);
  assert.match(html, /<td>missing<\/td>/);
  assert.match(html, /<td>other \(11 characters, sha256 [0-9a-f]{8}…\)<\/td>/);
  assert.ok(!html.includes(right) && !html.includes('a-wrong-key'));
});
