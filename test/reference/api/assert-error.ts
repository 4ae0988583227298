// The shape every API error must have (docs/profile.md "Error body"), asserted in one place.
import assert from 'node:assert/strict';
import type { Reply } from './client.ts';

const TYPES = new Set(['FATAL', 'NETWORK', 'BAD_REQUEST', 'AUTH', 'CONSENT']);

export function assertError(r: Reply, status: number, errorCode: string): Record<string, any> {
  assert.equal(r.status, status, `status: expected ${status}, got ${r.status} ${r.text}`);
  const b = r.json;
  assert.ok(b && typeof b === 'object', `error body is JSON: ${r.text}`);
  assert.equal(b.errorCode, errorCode, `errorCode: ${r.text}`);
  assert.match(b.errorCode, /^\d{4}$/);
  assert.equal(typeof b.id, 'string');
  assert.equal(typeof b.message, 'string');
  assert.equal(b.source, 'C');
  assert.ok(TYPES.has(b.type), `type ${b.type}`);
  assert.equal(typeof b.timestamp, 'number');
  assert.ok(Array.isArray(b.links));
  assert.ok(r.headers.get('x-request-id'), 'x-request-id header');
  assert.match(r.headers.get('content-type') ?? '', /application\/json/);
  return b;
}

/** The consent-link error: 1426 with an absolute href to the consent request of the session. */
export function assertConsentLink(r: Reply, status: number, sessionId: string, baseUrl: string): void {
  const b = assertError(r, status, '1426');
  assert.equal(b.type, 'CONSENT');
  const link = b.links.find((l: { rel: string }) => l.rel === 'consent');
  assert.ok(link, `a consent link in ${r.text}`);
  assert.equal(link.href, `${baseUrl}/consent/${sessionId}`);
  assert.ok(new URL(link.href).protocol.startsWith('http'));
}
