// contracts/openapi.yaml is a valid OpenAPI 3.1 document (checked by a standard
// parser), covers every operation of spec 4.4, the token endpoint and the
// webhook, and references the schema files instead of copying them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { parse } from 'yaml';

const FILE = fileURLToPath(new URL('../../contracts/openapi.yaml', import.meta.url));

test('openapi.yaml validates cleanly with @apidevtools/swagger-parser', async () => {
  const api = await SwaggerParser.validate(FILE) as OpenAPIV3_1.Document;
  assert.equal(api.openapi, '3.1.0');
});

test('every operation of spec 4.4, the token endpoint and the checkout webhook are there', async () => {
  const api = await SwaggerParser.dereference(FILE) as OpenAPIV3_1.Document;
  const ops = Object.entries(api.paths ?? {}).flatMap(([path, item]) =>
    (['get', 'post', 'delete'] as const).filter(m => item?.[m]).map(m => `${m.toUpperCase()} ${path}`));
  for (const op of [
    'POST /auth/realms/{realm}/protocol/openid-connect/token', 'GET /banks', 'GET /banks/{bankId}', 'POST /session',
    'GET /session/{sessionId}', 'DELETE /session/{sessionId}', 'GET /consent/{sessionId}', 'GET /accounts',
    'GET /accounts/{accountId}/transactions', 'POST /confirm-funds', 'POST /payments/{product}',
    'GET /payments/{product}/{paymentId}', 'POST /payments/{product}/{paymentId}/authorize',
  ]) assert.ok(ops.includes(op), `missing ${op}`);
  const hook = (api.webhooks?.checkoutStatus as OpenAPIV3_1.PathItemObject | undefined)?.post;
  assert.ok(hook, 'webhooks.checkoutStatus.post');
  assert.ok((hook.parameters as OpenAPIV3_1.ParameterObject[]).some(p => p.name === 'api-key' && p.in === 'header' && p.required));
  const headers: string[] = JSON.stringify(api).match(/"name":"(x-[a-z-]+)"/g) ?? [];
  for (const h of ['x-psu-ip-address', 'x-psu-id', 'x-redirect-url', 'x-device-id', 'x-session-id'])
    assert.ok(headers.includes(`"name":"${h}"`), `header ${h}`);
});

test('bodies reference the schema files rather than copying them', () => {
  const raw = JSON.stringify(parse(readFileSync(FILE, 'utf8')));
  for (const file of ['./webhook-normal.yaml', './webhook-batch.yaml', './webhook-older.yaml', './token-response.yaml',
    './token-error.yaml', './records/bank.yaml', './records/error-body.yaml'])
    assert.ok(raw.includes(`"$ref":"${file}"`), `$ref ${file}`);
  assert.ok(!raw.includes('"PAYMENT_NONTRACKABLE"'), 'no enum copied into openapi.yaml');
});
