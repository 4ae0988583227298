// Evidence says what the target sent: a `__proto__` member is kept, numbers
// that JSON.parse changes (1e400, -0, a 40-digit integer) keep the answer's
// text beside the parsed value, and a field name given twice is found as
// `validate` finds it in webhook bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exchange } from '../../harness/http/exchange.ts';
import { parsedFaithfully } from '../../harness/http/body.ts';
import { jsonTextFindings } from '../../harness/contracts/input.ts';
import { Redactor } from '../../harness/report/redact.ts';

const TEXT = '{"__proto__":{"polluted":true},"list":[{"__proto__":1}],"big":1e400,"neg":-0,' +
  '"int":1234567890123456789012345678901234567890,"ok":[1,2.5,-3e2,0.1,"1e400 in a string"],"access_token":"unregistered-secret"}';

async function answer(text: string) {
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(text); });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  try {
    return await exchange({ method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x` }, new Redactor());
  } finally { server.closeAllConnections(); await new Promise(r => server.close(r)); }
}

test('__proto__ members stay in the evidence, and the text is kept beside numbers JSON.parse changes', async () => {
  const ex = await answer(TEXT);
  const body = ex.evidence.response!.body as Record<string, unknown>;
  assert.ok(Object.hasOwn(body, '__proto__'), 'the member is kept');
  assert.deepEqual(JSON.parse(JSON.stringify(body)).__proto__, { polluted: true });
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'and no prototype was touched');
  assert.equal(JSON.stringify(body).match(/__proto__/g)?.length, 2);
  const text = ex.evidence.response!.bodyText!;
  assert.match(text, /"big":1e400,"neg":-0,"int":1234567890123456789012345678901234567890/);
  assert.ok(!text.includes('unregistered-secret'), 'a secret-named field is hidden in the text too');
});

test('the text is kept only where parsing changed something', () => {
  for (const t of ['{"a":1e400}', '[-0]', '[12345678901234567890]', '[0.1234567890123456789]']) assert.equal(parsedFaithfully(t), false, t);
  for (const t of ['{"a":1,"b":-2.5e3,"c":"-0 1e400"}', '[9007199254740991,0.1,100000000000000000000]', '{"s":"\\"1e400"}'])
    assert.equal(parsedFaithfully(t), true, t);
});

test('a field name given twice in an answer is found, with both values', () => {
  const found = jsonTextFindings('{"id":"a","nested":{"amount":1,"amount":2},"id":"b"}');
  assert.deepEqual(found.map(f => [f.pointer, f.rule, f.level]).sort(),
    [['/id', 'json.unique-names', 'must'], ['/nested/amount', 'json.unique-names', 'must']]);
  assert.match(found.find(f => f.pointer === '/nested/amount')!.found, /"amount" twice .*: 1 then 2/);
  assert.deepEqual(jsonTextFindings('{"a":1,"b":{"a":2}}'), []);
});

test('given the parsed answer, a text that names no field twice is passed as without it; one that does is found all the same', () => {
  const texts = ['{"id":"a","nested":{"amount":1,"amount":2},"id":"b"}', '{"a":1,"b":{"a":2}}', '{"k":"x\\",\\"k\\":1","k":2}',
    '{"a\\\\":1, "b":"\\":", "a\\\\" : 3}', '{"__proto__":1,"__proto__":2}', '[{"a":1,"a":2}]', '["a:", "b"]', '"x"', '{"a" \n:\t{"b":"\\u0022:"}}'];
  for (const t of texts) assert.deepEqual(jsonTextFindings(t, JSON.parse(t)), jsonTextFindings(t), t);
  assert.equal(jsonTextFindings('{"k":"x\\",\\"k\\":1","k":2}', JSON.parse('{"k":"x\\",\\"k\\":1","k":2}')).length, 1);
});

test('an answer that is an array is judged at every element, each finding under its index', () => {
  const t = '[{"a":1},\n {"b":1,"b":2}, "c", {"d":{"e":1,"e":1}}]';
  for (const found of [jsonTextFindings(t), jsonTextFindings(t, JSON.parse(t))])
    assert.deepEqual(found.map(f => [f.pointer, f.level]), [['/1/b', 'must'], ['/3/d/e', 'should']]);
  assert.match(jsonTextFindings(t)[0]!.found, /"b" twice \(again at line 2, column \d+\): 1 then 2/);
  assert.deepEqual(jsonTextFindings('[{"a":1},{"a":2}]'), [], 'the same name in two elements is no duplicate');
});
