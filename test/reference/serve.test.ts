// `pis-conformance serve-reference` as a user runs it: a child process that
// prints its URLs and credentials, serves a token from the printed curl's
// endpoint, and exits 0 on SIGTERM; a taken port and an unknown fault end it
// with one sentence and exit 2.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ROOT, runCli } from '../helpers/cli.ts';

const CLI = fileURLToPath(new URL('../../harness/cli.ts', import.meta.url));

/** Starts serve-reference and resolves with the child and its banner once it says "Press Ctrl-C". */
function serve(args: string[]): Promise<{ child: ChildProcess; out: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve-reference', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout!.on('data', d => { stdout += d; });
  child.stderr!.on('data', d => { stderr += d; });
  const exit = new Promise<number | null>(resolve => child.on('close', code => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no banner within 30 s:\n${stdout}\n${stderr}`)); }, 30_000);
    child.stdout!.on('data', () => {
      if (stdout.includes('Press Ctrl-C')) { clearTimeout(timer); resolve({ child, out: () => stdout, exit }); }
    });
    exit.then(code => { clearTimeout(timer); reject(new Error(`serve-reference exited ${code} before its banner:\n${stdout}\n${stderr}`)); });
  });
}

describe('serve-reference', () => {
  it('prints URLs and demo credentials, serves a token and a checkout, and exits 0 on SIGTERM', async () => {
    const { child, out, exit } = await serve(['--time-scale', '0.01', '--fault', 'token-type-capitalized']);
    try {
      const text = out();
      const tokenUrl = /token URL\s+(\S+)/.exec(text)![1];
      const baseUrl = /base URL\s+(\S+)/.exec(text)![1];
      const controlUrl = /control URL\s+(\S+)/.exec(text)![1];
      assert.match(text, /client id\s+demo-client/);
      assert.match(text, /client secret\s+demo-secret/);
      assert.match(text, /faults\s+token-type-capitalized/);
      assert.match(text, /curl -s -X POST '[^']+\/control\/checkouts' -H 'content-type: application\/json' -d '\{"kind":"normal"/);
      const tok = await fetch(tokenUrl,
        { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' }) });
      const t = await tok.json() as { access_token: string; token_type: string };
      assert.equal(tok.status, 200);
      assert.equal(t.token_type, 'Bearer');
      const banks = await fetch(`${baseUrl}/banks`, { headers: { authorization: `Bearer ${t.access_token}`, 'x-device-id': 'test' } });
      assert.equal(banks.status, 200);
      assert.deepEqual(await (await fetch(`${controlUrl}/health`)).json(), { timeScale: 0.01 });
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exit, 0);
    assert.match(out(), /stopped/);
  });

  it('exits 2 with one sentence when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>(r => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['serve-reference', '--port', String(port)], { timeoutMs: 30_000 });
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`Port ${port} .* already in use`));
      assert.equal(r.stderr.trim().split('\n').length, 1);
    } finally { blocker.close(); }
  });

  it('exits 2 for an unknown fault, naming --list-faults, which prints the catalog', async () => {
    const bad = await runCli(['serve-reference', '--fault', 'token-type-mac,no-such-fault'], { timeoutMs: 30_000 });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /'no-such-fault' is not a fault or quirk .* --list-faults/);
    const list = await runCli(['serve-reference', '--list-faults'], { timeoutMs: 30_000 });
    assert.equal(list.code, 0);
    assert.match(list.stdout, /webhook-retry-early\s+webhook\.backoff/);
    assert.match(list.stdout, /Quirks/);
  });

  it('exits 2 for a bad time scale', async () => {
    const r = await runCli(['serve-reference', '--time-scale', '0'], { timeoutMs: 30_000 });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\[PIS_BAD_FLAG\] --time-scale must be a positive number, not '0'\./);
  });
});
