// Each token fault and quirk of catalog.yaml changes the behaviour it names,
// and the clean reference does not show it: the same probe runs against both.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAULTS } from '../../../harness/reference/catalog.ts';
import type { Reference } from '../../../harness/reference/index.ts';
import { RefClient, withReference, type Reply } from '../api/client.ts';
import { describeFaultCases, type FaultCase } from '../fault-cases.ts';

const S = 1000;


const creds = (ref: Reference) => ({ client_id: ref.clientId, client_secret: ref.clientSecret });
const issue = (c: RefClient, ref: Reference): Promise<Reply> => c.tokenRequest({ grant_type: 'client_credentials', ...creds(ref) });
const refresh = (c: RefClient, ref: Reference, token: string): Promise<Reply> =>
  c.tokenRequest({ grant_type: 'refresh_token', refresh_token: token, ...creds(ref) });

/** The parts of the issued access token, and the API's status for it with one claim added (or a character, when it is opaque). */
async function forgedStatus(c: RefClient, r: Reference): Promise<[number, number]> {
  const token = String((await issue(c, r)).json.access_token);
  const parts = token.split('.');
  const claims = (p: string) => ({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), forged: true });
  const forged = parts.length === 3 ? `${parts[0]}.${Buffer.from(JSON.stringify(claims(parts[1]!))).toString('base64url')}.${parts[2]}` : `${token}x`;
  return [parts.length, (await c.call('GET', '/banks', { headers: { authorization: `Bearer ${forged}` } })).status];
}

const CASES: FaultCase[] = [
  { name: 'token-jwt', probe: forgedStatus, clean: [1, 401], faulty: [3, 401] },
  { name: 'token-jwt-signature-unchecked', probe: forgedStatus, clean: [1, 401], faulty: [3, 200] },
  { name: 'token-type-mac', probe: async (c, r) => (await issue(c, r)).json.token_type, clean: 'bearer', faulty: 'mac' },
  { name: 'token-type-capitalized', probe: async (c, r) => (await issue(c, r)).json.token_type, clean: 'bearer', faulty: 'Bearer' },
  { name: 'token-no-refresh-token', probe: async (c, r) => 'refresh_token' in (await issue(c, r)).json, clean: true, faulty: false },
  {
    name: 'token-refresh-same-access',
    probe: async (c, r) => { const a = await issue(c, r); return (await refresh(c, r, a.json.refresh_token)).json.access_token === a.json.access_token; },
    clean: false, faulty: true,
  },
  {
    name: 'token-wrong-secret-accepted',
    probe: async (c, r) => [(await c.tokenRequest({ grant_type: 'client_credentials', client_id: r.clientId, client_secret: 'wrong' })).status,
      (await c.tokenRequest({ grant_type: 'client_credentials', client_id: r.clientId })).status],
    clean: [400, 400], faulty: [200, 400],
  },
  {
    name: 'token-error-leaks-token',
    probe: async (c, r) => 'access_token' in (await c.tokenRequest({ grant_type: 'client_credentials', client_id: r.clientId, client_secret: 'wrong' })).json,
    clean: false, faulty: true,
  },
  {
    name: 'token-cacheable',
    probe: async (c, r) => [(await issue(c, r)).headers.get('cache-control'),
      (await c.tokenRequest({ grant_type: 'nope', ...creds(r) })).headers.get('cache-control')],
    clean: ['no-store', 'no-store'], faulty: [null, null],
  },
  {
    name: 'token-any-bearer',
    probe: async c => [(await c.call('GET', '/banks', { headers: { authorization: 'Bearer made-up' } })).status,
      (await c.call('GET', '/banks', { headers: { authorization: undefined } })).status],
    clean: [401, 401], faulty: [200, 401],
  },
  {
    name: 'token-keycloak-errors',
    probe: async (c, r) => {
      const answer = async (form: Record<string, string>) => {
        const x = await c.tokenRequest({ grant_type: 'client_credentials', ...form });
        return [x.status, x.json.error];
      };
      return [await answer({ client_id: r.clientId, client_secret: 'wrong' }), await answer({ client_id: 'stranger', client_secret: 'x' }),
        await answer({ client_id: r.clientId })];
    },
    clean: [[400, 'invalid_client'], [400, 'invalid_client'], [400, 'invalid_client']],
    faulty: [[401, 'unauthorized_client'], [401, 'unauthorized_client'], [400, 'invalid_client']],
  },
  {
    name: 'token-refresh-reusable',
    probe: async (c, r) => {
      const a = await issue(c, r);
      await refresh(c, r, a.json.refresh_token);
      return (await refresh(c, r, a.json.refresh_token)).status;
    },
    clean: 400, faulty: 200,
  },
  {
    name: 'token-scope-absent',
    probe: async (c, r) => {
      const a = await issue(c, r);
      const b = await refresh(c, r, a.json.refresh_token);
      return ['scope' in a.json, 'session_state' in a.json, 'scope' in b.json];
    },
    clean: [true, true, true], faulty: [false, false, true],
  },
  { name: 'extra-fields', probe: async (c, r) => 'not-before-policy' in (await issue(c, r)).json, clean: false, faulty: true },
  {
    name: 'token-refresh-not-renewable',
    probe: async (c, r) => {
      const a = await issue(c, r);
      const b = await refresh(c, r, a.json.refresh_token);
      return [b.status, (await refresh(c, r, b.json.refresh_token)).status];
    },
    clean: [200, 200], faulty: [200, 400],
  },
  {
    // Kept for ever, so reusable too: a refresh answer's token exchanged twice; the grant's own refresh token is not.
    name: 'token-refresh-chain-no-expiry',
    probe: async (c, r) => {
      const a = await issue(c, r);
      const b = await refresh(c, r, a.json.refresh_token);
      return [(await refresh(c, r, b.json.refresh_token)).status, (await refresh(c, r, b.json.refresh_token)).status,
        (await refresh(c, r, a.json.refresh_token)).status];
    },
    clean: [200, 400, 400], faulty: [200, 200, 400],
  },
  {
    name: 'token-refresh-no-client-auth',
    probe: async (c, r) => {
      const a = await issue(c, r);
      const wrong = await c.tokenRequest({ grant_type: 'refresh_token', refresh_token: a.json.refresh_token, client_id: r.clientId, client_secret: 'wrong' });
      return [wrong.status, (await c.tokenRequest({ grant_type: 'client_credentials', client_id: r.clientId, client_secret: 'wrong' })).status];
    },
    clean: [400, 400], faulty: [200, 400],
  },
  {
    name: 'token-client-id-optional',
    probe: async (c, r) => [(await c.tokenRequest({ grant_type: 'client_credentials', client_secret: r.clientSecret })).status,
      (await c.tokenRequest({ grant_type: 'client_credentials', client_secret: 'wrong' })).status],
    clean: [400, 400], faulty: [200, 400],
  },
  {
    name: 'token-refresh-token-optional',
    probe: async (c, r) => { const x = await c.tokenRequest({ grant_type: 'refresh_token', ...creds(r) }); return [x.status, typeof x.json.access_token]; },
    clean: [400, 'undefined'], faulty: [200, 'string'],
  },
];

describeFaultCases('token faults and quirks change exactly what they name', CASES);

describe('token fault coverage', () => {
  it('covers every token fault of the catalog', () => {
    const here = [...CASES.map(k => k.name), ...TIMED];
    assert.deepEqual(FAULTS.filter(f => f.prefix.startsWith('token.')).map(f => f.name).filter(n => !here.includes(n)), []);
  });
});

/** The faults tested on the clock below. */
const TIMED = ['token-refresh-no-reset', 'token-refresh-chain-old-schedule', 'token-no-expiry', 'token-expired-served-transactions',
  'token-early-expiry', 'token-refresh-early-expiry', 'token-refresh-no-expiry'];

/**
 * Lifetimes of 200 and 400 spec s on a clock of 10 ms per spec second: 2 and 4
 * real seconds, so every probe below is at least 0.5 s (arbitrary: far above
 * a loaded machine's request time) from each lifetime it tells apart.
 */
const SHORT = { timeScale: 0.01, lifetimes: { accessS: 200, refreshS: 400 } };

/**
 * What one side must show at a moment after its grant: a status, with the
 * moment (spec s after the grant) before which it must be read (a token still
 * alive) or after which it must be sent (a token already dead).
 */
type Expect = { status: number; before?: number; after?: number };

/**
 * A grant, then a use `atSpecS` after it, on a clean reference and on one with
 * `fault`. Both are judged on each reference's own clock: an answer read after
 * its `before`, or a use sent before its `after`, proves nothing (the machine
 * held the request) and the pair is tried again, at most three times.
 */
async function onTheClock(fault: string, atSpecS: number, use: (c: RefClient, ref: Reference, grant: Reply) => Promise<number>,
  expect: [Expect, Expect]): Promise<void> {
  const seen: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const refs = [await withReference(SHORT), await withReference({ ...SHORT, faults: [fault] })];
    try {
      const one = async ({ ref, client }: { ref: Reference; client: RefClient }) => {
        const g0 = ref.clock.now();
        const grant = await issue(client, ref);
        const g1 = ref.clock.now();
        await ref.clock.sleep(g0 + atSpecS * S - ref.clock.now());
        const u0 = ref.clock.now();
        const status = await use(client, ref, grant);
        return { status, fromGrant: [(u0 - g1) / S, (ref.clock.now() - g0) / S] as const };
      };
      const got = await Promise.all(refs.map(one));
      const judgeable = got.every((x, i) => (expect[i]!.before === undefined || x.fromGrant[1] < expect[i]!.before!)
        && (expect[i]!.after === undefined || x.fromGrant[0] >= expect[i]!.after!));
      seen.push(got.map(x => `${x.status} between ${x.fromGrant[0].toFixed(0)} and ${x.fromGrant[1].toFixed(0)} spec s`).join(' / '));
      if (judgeable) {
        assert.deepEqual(got.map(x => x.status), expect.map(e => e.status), seen.join('; '));
        return;
      }
    } finally { for (const r of refs) await r.ref.close(); }
  }
  assert.fail(`the uses could not be placed on the clock three times (the machine held them): ${seen.join('; ')}`);
}

const apiCall = (c: RefClient, _r: Reference, g: Reply) =>
  c.call('GET', '/banks', { headers: { authorization: `Bearer ${g.json.access_token}` } }).then(x => x.status);
const refreshCall = (c: RefClient, r: Reference, g: Reply) => refresh(c, r, g.json.refresh_token).then(x => x.status);

describe('token faults on the clock', { concurrency: true }, () => {
  it('token-refresh-no-reset: a refresh keeps the first lifetimes, and the new token dies with the first', async () => {
    const { ref, client: c } = await withReference({ timeScale: 0.001, faults: ['token-refresh-no-reset'] });
    try {
      const a = await issue(c, ref);
      const t1 = ref.clock.now();
      await ref.clock.sleep(1800 * S);
      const b = await refresh(c, ref, a.json.refresh_token);
      // About 1800 s are left of the first token (3600 on a clean reference, see lifetimes.test.ts).
      assert.ok(b.json.expires_in <= 1800 && b.json.expires_in >= 1000, `expires_in ${b.json.expires_in}`);
      assert.ok(b.json.refresh_expires_in <= 5400 && b.json.refresh_expires_in >= 4600, `refresh_expires_in ${b.json.refresh_expires_in}`);
      await ref.clock.sleep(t1 + 3600 * S + 300 * S - ref.clock.now());
      const r = await c.call('GET', '/banks', { headers: { authorization: `Bearer ${b.json.access_token}` } });
      assert.equal(r.status, 401, 'the renewed token expired with the first one');
    } finally { await ref.close(); }
  });

  it('token-early-expiry: an access token is refused at 75 % of its expires_in (and is not on a clean reference)', async () => {
    await onTheClock('token-early-expiry', 150, apiCall, [{ status: 200, before: 200 }, { status: 401, after: 100 }]);
  });

  it('token-refresh-early-expiry: a refresh token is refused at 75 % of its refresh_expires_in (and is not on a clean reference)', async () => {
    await onTheClock('token-refresh-early-expiry', 300, refreshCall, [{ status: 200, before: 400 }, { status: 400, after: 200 }]);
  });

  it('token-refresh-no-expiry: a refresh token is still exchanged after its refresh_expires_in (and is not on a clean reference)', async () => {
    await onTheClock('token-refresh-no-expiry', 450, refreshCall, [{ status: 400, after: 400 }, { status: 200 }]);
  });

  it('token-no-expiry: an access token is still accepted after 3600 spec s (and is not on a clean reference)', async () => {
    const faulty = await withReference({ timeScale: 0.0005, faults: ['token-no-expiry'] });
    const clean = await withReference({ timeScale: 0.0005 });
    try {
      await faulty.ref.clock.sleep(3900 * S);
      assert.equal((await faulty.client.call('GET', '/banks')).status, 200);
      assert.equal((await clean.client.call('GET', '/banks')).status, 401);
    } finally { await faulty.ref.close(); await clean.ref.close(); }
  });

  it('token-expired-served-transactions: after 3600 spec s GET transactions still takes the token and GET /banks does not (the clean reference refuses both)',
    async () => {
      const faulty = await withReference({ timeScale: 0.0005, faults: ['token-expired-served-transactions'] });
      const clean = await withReference({ timeScale: 0.0005 });
      try {
        await Promise.all([faulty.ref.clock.sleep(3900 * S), clean.ref.clock.sleep(3900 * S)]);
        assert.equal((await faulty.client.call('GET', '/banks')).status, 401);
        assert.notEqual((await faulty.client.call('GET', '/accounts/any/transactions')).status, 401);
        assert.equal((await clean.client.call('GET', '/accounts/any/transactions')).status, 401);
      } finally { await faulty.ref.close(); await clean.ref.close(); }
    });

  it('token-refresh-chain-old-schedule: the refresh token of a second exchange dies on the first exchange\'s schedule (not on a clean reference)',
    async () => {
      // The third exchange goes 8000 spec s after the first and 5000 after the second (refresh tokens live 7200): it is
      // judged when its answer came within 7200 spec s of the second's request (sent while that token lived, on a clean
      // reference), else the machine held it and the pair is tried again, at most three times.
      const exchange = async (faults: string[]) => {
        const { ref, client } = await withReference({ timeScale: 0.0005, faults });
        try {
          const first = await refresh(client, ref, (await issue(client, ref)).json.refresh_token);
          await ref.clock.sleep(3000 * S);
          const asked = ref.clock.now();
          const second = await refresh(client, ref, first.json.refresh_token);
          assert.equal(second.json.refresh_expires_in, 7200);
          await ref.clock.sleep(5000 * S);
          const { status } = await refresh(client, ref, second.json.refresh_token);
          return { status, afterSecondS: (ref.clock.now() - asked) / S };
        } finally { await ref.close(); }
      };
      const seen: string[] = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        const got = [await exchange(['token-refresh-chain-old-schedule']), await exchange([])];
        seen.push(got.map(x => `${x.status} within ${x.afterSecondS.toFixed(0)} spec s of the second exchange`).join(' / '));
        if (got[1]!.afterSecondS < 7200) {
          assert.deepEqual(got.map(x => x.status), [400, 200], seen.join('; '));
          return;
        }
      }
      assert.fail(`the third exchange could not be placed on the clock three times (the machine held it): ${seen.join('; ')}`);
    });
});
