// Credentials written into a URL: found where the URL parser finds them, and
// only there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrlUserinfo, splitUserinfo } from '../../harness/http/url.ts';

test('userinfo is redacted, the rest of the URL left exactly as given', () => {
  assert.equal(redactUrlUserinfo('https://user:pass@host.example:8443/a/b?c=d#e'), 'https://[redacted]@host.example:8443/a/b?c=d#e');
  assert.equal(redactUrlUserinfo('https://token@host/x'), 'https://[redacted]@host/x');
  // The authority ends at the first / ? or #: an @ after it is no userinfo.
  assert.equal(redactUrlUserinfo('https://host/users/@me?mail=a@b'), 'https://host/users/@me?mail=a@b');
  assert.equal(redactUrlUserinfo('http://a@b:p@w@host/'), 'http://[redacted]@host/');
  assert.equal(redactUrlUserinfo('not a url'), 'not a url');
});

// Every form the WHATWG parser reads credentials from (new URL(...).password is PW in each).
const FORMS = ['http:alice:PW@host/p', 'http:\\\\alice:PW@host/p', 'http:/alice:PW@host/p', 'http:///alice:PW@host/p', 'https:\\/alice:PW@host/p',
  ' \thttp://alice:PW@host/p', 'HTTP://alice:PW@host/p', 'ht\ttp://alice:PW@host/p', 'http://alice:P\nW@host/p', 'http://alice:PW@host'];

test('userinfo in every URL form the WHATWG parser accepts is redacted and sent as Basic authorization', () => {
  for (const url of FORMS) {
    assert.equal(new URL(url).password.replace(/\n/, ''), 'PW', `the parser reads a password from ${JSON.stringify(url)}`);
    const shown = redactUrlUserinfo(url);
    assert.ok(!shown.includes('PW') && !shown.includes('alice'), `${JSON.stringify(url)} shown as ${shown}`);
    assert.equal(new URL(shown).password, '', shown);
    const split = splitUserinfo(url);
    assert.equal(new URL(split.url).password, '', split.url);
    assert.equal(new URL(split.url).host, 'host');
    assert.match(split.authorization ?? '', /^Basic /, url);
  }
  // Not a URL at all, yet a password in it is not shown either.
  assert.equal(redactUrlUserinfo('http://alice:PW@[bad'), 'http://[redacted]@[bad');
});

test('userinfo becomes Basic authorization, decoded as the URL parser decodes it', () => {
  for (const url of ['https://some%20one:pa%3As%40s@host:1/p?q', 'http://only-user@h/', 'http://a@b:p@w@host/']) {
    const u = new URL(url);
    const split = splitUserinfo(url);
    assert.equal(split.authorization, `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`, url);
    u.username = ''; u.password = '';
    assert.equal(new URL(split.url).href, u.href);
  }
  assert.deepEqual(splitUserinfo('https://host/a@b'), { url: 'https://host/a@b' });
});
