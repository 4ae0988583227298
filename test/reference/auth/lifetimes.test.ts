// Token lifetimes enforced on the compressed clock (spec 2.1, 4.2, 8): access
// tokens die after 3600 and refresh tokens after 7200 spec seconds, and a
// refresh restarts both. Times are read from the reference's own clock; each
// expectation keeps a margin of 300 spec seconds (0.15-0.3 real s here, an
// arbitrary figure far above timer jitter) on the side that matters, and a
// "still valid" call that itself ended past the deadline is not judged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Reference } from '../../../harness/reference/index.ts';
import { RefClient, withReference } from '../api/client.ts';

const S = 1000;
const MARGIN = 300 * S;

async function until(ref: Reference, specMs: number): Promise<void> {
  const wait = specMs - ref.clock.now();
  if (wait > 0) await ref.clock.sleep(wait);
}

/** Calls the API with a token; returns the status, or null when the call ended past `deadline` (not judged). */
async function statusWith(c: RefClient, ref: Reference, token: string, deadline = Infinity): Promise<number | null> {
  const r = await c.call('GET', '/banks', { headers: { authorization: `Bearer ${token}` } });
  return ref.clock.now() > deadline ? null : r.status;
}

describe('token lifetimes on a compressed clock', { concurrency: true }, () => {
  it('an access token works until 3600 spec s, and a refresh gives a new one that lives 3600 s from then', async () => {
    const { ref, client: c } = await withReference({ timeScale: 0.001 }); // 3600 spec s = 3.6 real s
    try {
      const creds = { client_id: ref.clientId, client_secret: ref.clientSecret };
      const t0 = ref.clock.now();
      const first = await c.tokenRequest({ grant_type: 'client_credentials', ...creds });
      const t1 = ref.clock.now();
      assert.equal(await statusWith(c, ref, first.json.access_token, t0 + 3600 * S), 200);

      await until(ref, t1 + 1800 * S);
      const r0 = ref.clock.now();
      const second = await c.tokenRequest({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...creds });
      const r1 = ref.clock.now();
      assert.equal(second.status, 200);
      assert.equal(second.json.expires_in, 3600, 'a refresh restarts the access lifetime (spec 4.2)');
      assert.equal(second.json.refresh_expires_in, 7200, 'a refresh restarts the refresh lifetime (spec 4.2)');

      await until(ref, t1 + 3600 * S + MARGIN);
      assert.equal(await statusWith(c, ref, first.json.access_token), 401, 'the first access token has expired');
      const live = await statusWith(c, ref, second.json.access_token, r0 + 3600 * S);
      if (live !== null) assert.equal(live, 200, 'the refreshed access token is still valid');

      await until(ref, r1 + 3600 * S + MARGIN);
      const expired = await c.call('GET', '/banks', { headers: { authorization: `Bearer ${second.json.access_token}` } });
      assert.equal(expired.status, 401, 'the refreshed access token expires 3600 s after the refresh');
      assert.match(expired.json.message, /expired/);
    } finally { await ref.close(); }
  });

  it('a refresh token works until 7200 spec s, after its access token died, and not after', async () => {
    const { ref, client: c } = await withReference({ timeScale: 0.0005 }); // 7200 spec s = 3.6 real s
    try {
      const creds = { client_id: ref.clientId, client_secret: ref.clientSecret };
      const t0 = ref.clock.now();
      const a = await c.tokenRequest({ grant_type: 'client_credentials', ...creds });
      const b = await c.tokenRequest({ grant_type: 'client_credentials', ...creds });
      const t1 = ref.clock.now();

      await until(ref, t1 + 5000 * S);
      assert.equal(await statusWith(c, ref, a.json.access_token), 401, 'the access token died at 3600 s');
      const renewed = await c.tokenRequest({ grant_type: 'refresh_token', refresh_token: a.json.refresh_token, ...creds });
      if (ref.clock.now() < t0 + 7200 * S) assert.equal(renewed.status, 200, `a refresh token is usable before 7200 s: ${renewed.text}`);

      await until(ref, t1 + 7200 * S + MARGIN);
      const late = await c.tokenRequest({ grant_type: 'refresh_token', refresh_token: b.json.refresh_token, ...creds });
      assert.equal(late.status, 400);
      assert.equal(late.json.error, 'invalid_grant');
      assert.match(late.json.error_description, /expired/);
    } finally { await ref.close(); }
  });
});
