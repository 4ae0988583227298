// token.refresh.answers-tokens judges a refused exchange of a refresh chain only
// when the refresh token cannot have reached its stated refresh_expires_in:
// at or past it the place is not run, with the figures; well within it, the
// refusal is a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editJson, jsonAnswer, runThroughProxy, type ProxyMutation } from '../../helpers/proxy.ts';

const TOKEN = /\/openid-connect\/token$/;

/** Every token answer states refresh_expires_in `lifeS`; a refresh token that a refresh grant answered is refused when exchanged. */
function secondExchangeRefused(lifeS: number): ProxyMutation {
  const fromRefresh = new Set<string>();
  return {
    request: x => {
      if (!TOKEN.test(x.path)) return;
      const form = new URLSearchParams(x.body);
      if (form.get('grant_type') === 'refresh_token' && fromRefresh.has(form.get('refresh_token') ?? ''))
        return jsonAnswer({ error: 'invalid_grant', error_description: 'refresh token has expired' }, 400);
    },
    answer: (x, a) => {
      if (!TOKEN.test(x.path) || a.status !== 200) return;
      const refresh = new URLSearchParams(x.body).get('grant_type') === 'refresh_token';
      editJson(a, b => {
        b.refresh_expires_in = lifeS;
        if (refresh && typeof b.refresh_token === 'string') fromRefresh.add(b.refresh_token);
      });
    },
  };
}

const run = (lifeS: number, timeScale: number) =>
  runThroughProxy([secondExchangeRefused(lifeS)], ['--suites', 'token', '--grep', 'token\\.refresh\\.answers-tokens '], timeScale);

test('a refresh chain\'s exchange refused: not run at or past refresh_expires_in, failed well within it', async () => {
  // 1 s at time scale 0.001 is 1 real ms, which no exchange undercuts; 3600 s at 0.05 is 180 real s, which none reaches.
  const [near, within] = await Promise.all([run(1, 0.001), run(3600, 0.05)]);
  const n = near.results?.checks.find(c => c.id === 'token.refresh.answers-tokens');
  assert.equal(n?.status, 'skipped', `${n?.status} ${n?.message}\n${near.cli.stdout}${near.cli.stderr}`);
  assert.match(n.message ?? '', /the refresh token of exchange 2 was refused [\d.]+ s \(real\) after it was asked for, at or past its refresh_expires_in of 1 s/);
  const w = within.results?.checks.find(c => c.id === 'token.refresh.answers-tokens');
  assert.equal(w?.status, 'failed', `${w?.status} ${w?.message}\n${within.cli.stdout}${within.cli.stderr}`);
  assert.match(w.message ?? '', /exchange 2: the refresh grant was not answered with success at exchange 2/);
});
