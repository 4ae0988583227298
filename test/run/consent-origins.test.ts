// The follow consent driver goes only to the origins of the target's own URLs
// and those --consent-origins names: a consent link to another address of the
// network (server-side request forgery) is not fetched, and the checks that
// need the consent are not run, with the flag that would let them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { editJson, runThroughProxy, type ProxyMutation } from '../helpers/proxy.ts';

test('a consent link to another origin is not followed unless --consent-origins names it', async () => {
  let hits = 0;
  const internal = createServer((req, res) => { hits++; res.writeHead(200, { 'content-type': 'text/plain' }); res.end('internal secret'); });
  await new Promise<void>(r => internal.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  // The consent answer's link points at the internal server.
  const elsewhere: ProxyMutation = {
    answer: (x, a) => {
      if (a.status < 300 && /^\/api\/consent(\/|$)/.test(x.path)) editJson(a, b => {
        for (const l of Array.isArray(b?.links) ? b.links : []) if (l?.rel === 'consent') l.href = `${origin}/admin/secret`;
      });
    },
  };
  try {
    const args = ['--suites', 'session', '--grep', 'session\\.lifecycle\\.consent '];
    const { cli, results } = await runThroughProxy([elsewhere], args);
    const out = cli.stdout + cli.stderr;
    assert.ok(results, out);
    assert.equal(hits, 0, 'the internal server was not reached');
    const c = results.checks.find(x => x.id === 'session.lifecycle.consent')!;
    assert.equal(c.skipKind, 'not-run', JSON.stringify(c));
    assert.match(c.message ?? '', new RegExp(`leads to ${origin}, which is not an origin of the target's URLs`));
    assert.match(out, new RegExp(`--consent-origins ${origin}`));
    assert.ok(!JSON.stringify(results).includes('internal secret'));

    const allowed = await runThroughProxy([elsewhere], [...args, '--consent-origins', origin]);
    assert.ok(hits > 0, `with --consent-origins the driver goes there\n${allowed.cli.stdout}${allowed.cli.stderr}`);
  } finally {
    internal.closeAllConnections();
    await new Promise(r => internal.close(r));
  }
});
