// A session check that gave consent and then sees the consent-link error judges
// the target only when the consent cannot have run out meanwhile: near or past
// the consent lifetime (--session-lifetime) the place is not run, with the
// figures; well within it, the error is a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorAnswer, runThroughProxy, type ProxyMutation } from '../helpers/proxy.ts';

/** Every session's GET /accounts that the reference served (after consent, as the consent driver leaves it) answers the consent-link error. */
const consentLost: ProxyMutation = {
  answer: (x, a) => {
    const session = x.headers['x-session-id'];
    if (x.method !== 'GET' || x.path !== '/api/accounts' || !session || a.status >= 300) return;
    Object.assign(a, errorAnswer(409, '1426', 'Consent required: the consent of this session has expired'));
    a.text = JSON.stringify({ ...JSON.parse(a.text), type: 'CONSENT', links: [{ type: 'GET', rel: 'consent', href: `http://${x.headers.host}/consent/${session}` }] });
  },
};

const CHECKS = ['session.lifecycle.consent-without-redirect-url', 'session.lifecycle.consent'];
const run = (lifetimeS: string) => runThroughProxy([consentLost],
  ['--suites', 'session', '--banks', 'dnb-no', '--session-lifetime', lifetimeS, '--grep', `(${CHECKS.map(id => id.replace(/\./g, '\\.')).join('|')}) `]);

test('the consent-link error just after consent: not run near the consent lifetime, failed well within it', async () => {
  const [near, within] = await Promise.all([run('1'), run('3600')]);
  for (const id of CHECKS) {
    const n = near.results?.checks.find(c => c.id === id);
    assert.equal(n?.status, 'skipped', `${id}: ${n?.status} ${n?.message}\n${near.cli.stdout}${near.cli.stderr}`);
    assert.match(n.message ?? '', /answered the consent-link error [\d.]+ s \(real\) after its consent was asked for, near or past the consent lifetime \(1 spec s/);
    const w = within.results?.checks.find(c => c.id === id);
    assert.equal(w?.status, 'failed', `${id}: ${w?.status} ${w?.message}\n${within.cli.stdout}${within.cli.stderr}`);
  }
});
