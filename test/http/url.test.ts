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
